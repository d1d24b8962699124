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

    func run(in context: CommandContext) async throws(CLIError) {
        let served = try await HelperToken.fetch(kind, context: context)
        switch output {
        case .bare:
            context.standardOutput.line(served.token)
        case .header:
            context.standardOutput.line("Authorization: Bearer \(served.token)")
        case .json:
            let payload = TokenJSON(token: served.token, tokenType: kind == .access ? "access" : "id", profile: served.profile,
                                    expiresAt: TimeText.rfc3339(served.expiresAt), expiresAtUnix: Int64(served.expiresAt))
            try JSONOutput.write(payload, pretty: false, to: context.standardOutput)
        }
    }

    private struct TokenJSON: Encodable {
        let token: String
        let tokenType: String
        let profile: String
        let expiresAt: String
        let expiresAtUnix: Int64
    }
}
