import AuthVaultApp
import BoundedJSON

/// `authvault token`: a valid token on standard output and nothing else, refreshed ahead of expiry.
struct TokenCommand: CLICommand {
    static let idToken = OptionSpec.flag("id", help: "Print the ID token instead of the access token.")
    static let format = TypedOption<Format>(
        "format", help: "bare: the token; header: 'Authorization: Bearer ...' for curl -H @-; json: as --json.",
        default: .bare)
    static let json = JSONOutput.option("the token with its type and expiry", schema: "token")
    /// `schemaVersion` of the JSON form: raised only when a field changes meaning or goes; new fields keep it.
    static let schemaVersion = 1
    static let claims = OptionSpec.flag(
        "claims",
        help:
            "Print the token's decoded claims as JSON (groups, scopes, expiry), not the token; the signature is left out."
    )
    static let name = "token"
    static let spec = CommandSpec(
        name: name,
        abstract: "Print a valid access token (or ID token) for the profile.",
        discussion: """
            Without a usable session it exits with status 3 and says which command to run: the login that signs the
            profile in on this machine ('--paste' added where no browser can be opened and there is no device
            grant). With 'configure --helper-sign-in on' it first signs in on the terminal (/dev/tty) or desktop as a
            plain 'login' would, unless --non-interactive, AUTHVAULT_NON_INTERACTIVE or GIT_TERMINAL_PROMPT=0 forbids
            it.
            """,
        options: [idToken, format.spec, json, claims])

    enum Format: String, OptionChoice { case bare, header, json }

    let kind: TokenKind
    let output: Format
    let showsClaims: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        kind = arguments.flag(Self.idToken) ? .id : .access
        let asJSON = arguments.flag(Self.json)
        let formatGiven = arguments.value(Self.format.spec) != nil
        if asJSON && formatGiven { throw UsageError("--json is --format json: give one of --json and --format.") }
        output = asJSON ? .json : try arguments.value(Self.format)
        showsClaims = arguments.flag(Self.claims)
        if showsClaims && (asJSON || formatGiven) {
            throw UsageError("Choose one of --claims and --\(asJSON ? "json" : "format").")
        }
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        let served = try await HelperToken.fetch(kind, context: context)
        if showsClaims { return try printClaims(of: served, context: context) }
        switch output {
        case .bare:
            context.standardOutput.line(served.token)
        case .header:
            context.standardOutput.line("Authorization: Bearer \(served.token)")
        case .json:
            // docs/token.schema.json, keys in order.
            JSONOutput.write(
                .object(
                    ("expiresAt", .string(TimeText.rfc3339(served.expiresAt))),
                    ("expiresAtUnix", .number(served.expiresAt.rounded(.towardZero))),
                    ("profile", .string(served.profile)),
                    ("schemaVersion", .number(Double(Self.schemaVersion))), ("token", .string(served.token)),
                    ("tokenType", .string(kind == .access ? "access" : "id"))),
                to: context.standardOutput)
        }
    }

    /// The payload only, decoded and not verified here (it was when it arrived); sorted, one line, for jq.
    private func printClaims(of served: HelperToken, context: CommandContext) throws(CLIError) {
        guard let claims = Claims(unverifiedPayloadOf: SecretBytes(utf8: served.token)) else {
            throw CLIError(
                "The \(kind == .access ? "access" : "ID") token of profile '\(served.profile)' is not a JWT, so it has no claims to show"
                    + (kind == .access
                        ? " (providers other than Cognito may issue opaque access tokens): try \(Remedy.command("token", profile: served.profile, "--id --claims"))."
                        : "."))
        }
        let members = claims.all.keys.sorted().map { JSONMember($0, claims.all[$0]!) }
        JSONOutput.write(.object(members), to: context.standardOutput)
    }
}
