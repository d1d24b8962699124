import AuthAgent
import AuthStore

/// `authvault token`: a valid token on standard output and nothing else, refreshed ahead of expiry.
struct TokenCommand: CLICommand {
    static let idToken = OptionSpec.flag("id", help: "Print the ID token instead of the access token.")
    static let format = OptionSpec.value("format", placeholder: "bare|header|json",
                                         help: "bare: the token (default); header: 'Authorization: Bearer ...' for curl -H @-; json: token and expiry.")
    static let spec = CommandSpec(
        name: "token",
        abstract: "Print a valid access token (or ID token) for the profile.",
        discussion: "Never prompts to sign in: when there is no usable session it exits with status 3 and says which command to run.",
        options: [idToken, format])

    enum Format: String { case bare, header, json }

    let kind: TokenKind
    let output: Format

    init(arguments: ParsedArguments) throws(UsageError) {
        kind = arguments.flag(Self.idToken) ? .id : .access
        let value = arguments.value(Self.format) ?? "bare"
        guard let format = Format(rawValue: value) else {
            throw UsageError("Invalid value '\(value)' for --format: expected bare, header or json.")
        }
        output = format
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
