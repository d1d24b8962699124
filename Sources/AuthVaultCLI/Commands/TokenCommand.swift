import AuthAgent
import AuthStore
import AuthVaultApp

/// `authvault token`: a valid token on standard output and nothing else, refreshed ahead of expiry.
struct TokenCommand: CLICommand {
    static let idToken = OptionSpec.flag("id", help: "Print the ID token instead of the access token.")
    static let format = TypedOption<Format>("format", help: "bare: the token; header: 'Authorization: Bearer ...' for curl -H @-; json: token and expiry.",
                                            default: .bare)
    static let spec = CommandSpec(
        name: "token",
        abstract: "Print a valid access token (or ID token) for the profile.",
        discussion: "Never prompts to sign in: when there is no usable session it exits with status 3 and says which command to run.",
        options: [idToken, format.spec])

    enum Format: String, OptionChoice { case bare, header, json }

    let kind: TokenKind
    let output: Format

    init(arguments: ParsedArguments) throws(UsageError) {
        kind = arguments.flag(Self.idToken) ? .id : .access
        output = try arguments.value(Self.format)
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        let served = try await HelperToken.fetch(kind, context: context)
        switch output {
        case .bare:
            context.standardOutput.line(served.token)
        case .header:
            context.standardOutput.line("Authorization: Bearer \(served.token)")
        case .json:
            JSONOutput.write(.object(("expiresAt", .string(TimeText.rfc3339(served.expiresAt))),
                                     ("expiresAtUnix", .number(served.expiresAt.rounded(.towardZero))), ("profile", .string(served.profile)),
                                     ("token", .string(served.token)), ("tokenType", .string(kind == .access ? "access" : "id"))),
                             to: context.standardOutput)
        }
    }
}
