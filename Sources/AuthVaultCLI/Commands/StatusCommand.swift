import AuthStore
import AuthVaultApp
import FoundationEssentials
import TokenVault

/// `authvault status`: who is signed in, until when, where the tokens are; and when not usable, why.
struct StatusCommand: CLICommand {
    static let json = OptionSpec.flag("json", help: "Print the status as JSON.")
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the profile's session: who, token expiry, vault backend, last refresh.",
        discussion: "Reads the vault only: it neither refreshes nor contacts Cognito. Exit status 3 when there is no session, 4 when the vault is locked.",
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    private struct Report: Encodable {
        var profile: String
        /// Nil for a profile of another OpenID provider, whose issuer is shown instead.
        var userPoolId: String?
        var issuer: String
        var clientId: String
        var backend: String
        var state: String
        var usable: Bool
        var problem: String?
        var user: String?
        var username: String?
        var identities: [String]?
        var origin: String?
        var accessTokenExpiresAt: String?
        var idTokenExpiresAt: String?
        var signedInAt: String?
        var lastRefreshAt: String?
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        let state = await session.store.bootstrap()
        let record = await session.store.storedRecord
        let now = TimeText.now
        var report = Report(profile: session.profile.name, userPoolId: session.profile.userPoolId, issuer: session.profile.issuer,
                            clientId: session.profile.clientId, backend: session.backend.rawValue, state: "\(state)",
                            usable: false)
        var exitStatus = ExitStatus.success
        switch state {
        case .signedIn, .refreshing:
            report.usable = true
            if let failure = session.store.lastRefreshFailure() {
                report.problem = "the last refresh failed \(TimeText.relative(failure.at, now: now)) (\(failure.message)); "
                    + "the stored session is kept and the next 'authvault token' tries again"
            } else if let refresh = record?.refreshToken, refresh.count > 0, let expiry = record?.accessTokenExpiresAt, expiry <= now {
                report.problem = "the access token expired \(TimeText.relative(expiry, now: now)); the next 'authvault token' refreshes it"
            }
        case .vaultUnavailable(let error):
            report.problem = error.description
            exitStatus = CLIErrors.from(error).status
        case .needsSignIn(let reason):
            report.problem = "\(reason); run 'authvault login'"
            exitStatus = .signInRequired
        default:
            report.problem = "not signed in; run 'authvault login'"
            exitStatus = .signInRequired
        }
        if let record, record.hasSession {
            report.user = record.identity?.displayName
            report.username = record.identity?.username
            report.identities = record.identity?.federated.map { "\($0.provider):\($0.userId)" }
            report.origin = record.origin?.rawValue
            report.accessTokenExpiresAt = record.accessTokenExpiresAt.map(TimeText.rfc3339)
            report.idTokenExpiresAt = record.idTokenExpiresAt.map(TimeText.rfc3339)
            report.signedInAt = record.signedInAt.map(TimeText.rfc3339)
            report.lastRefreshAt = record.lastRefreshAt.map(TimeText.rfc3339)
        }
        if asJSON {
            try JSONOutput.write(report, to: context.standardOutput)
        } else {
            context.standardOutput.write(render(report, record: record, now: now))
        }
        if exitStatus != .success { throw CLIError(report.problem ?? "not usable", status: exitStatus) }
    }

    private func render(_ report: Report, record: CredentialRecord?, now: Double) -> String {
        let provider = report.userPoolId.map { "pool \($0)" } ?? "issuer \(report.issuer)"
        var lines = ["Profile:    \(report.profile) (\(provider), client \(report.clientId))",
                     "Vault:      \(report.backend)",
                     "State:      \(report.state)"]
        if let user = report.user {
            lines.append("User:       \(user)\(report.username.map { $0 != user ? " (user name \($0))" : "" } ?? "")")
        }
        if let identities = report.identities, !identities.isEmpty { lines.append("Federated:  \(identities.joined(separator: ", "))") }
        if let expiry = record?.accessTokenExpiresAt, record?.hasSession == true {
            lines.append("Access:     \(expiry > now ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: now)))")
        }
        if let expiry = record?.idTokenExpiresAt, record?.hasSession == true {
            lines.append("ID token:   \(expiry > now ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: now)))")
        }
        if let refreshed = record?.lastRefreshAt, record?.hasSession == true {
            lines.append("Refreshed:  \(TimeText.rfc3339(refreshed)) (\(TimeText.relative(refreshed, now: now)))")
        }
        if let problem = report.problem { lines.append("Note:       \(problem)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
