import AuthCrypto
import AuthStore
import FoundationEssentials

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
        let session = try await ProfileSession.open(context)
        let token: SecretBytes
        do {
            token = kind == .access ? try await session.store.validAccessToken() : try await session.store.validIDToken()
        } catch {
            throw CLIErrors.from(error)
        }
        let text = token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        switch output {
        case .bare:
            context.standardOutput.line(text)
        case .header:
            context.standardOutput.line("Authorization: Bearer \(text)")
        case .json:
            let record = await session.store.storedRecord
            let expiresAt = (kind == .access ? record?.accessTokenExpiresAt : record?.idTokenExpiresAt) ?? 0
            let payload = TokenJSON(token: text, tokenType: kind == .access ? "access" : "id", profile: session.profile.name,
                                    expiresAt: TimeText.rfc3339(expiresAt), expiresAtUnix: Int64(expiresAt))
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
