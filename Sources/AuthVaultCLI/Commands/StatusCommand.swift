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
        var userPoolId: String
        var clientId: String
        var backend: String
        var state: String
        var usable: Bool
        var problem: String?
        var user: String?
        var username: String?
        var identities: [String]?
        var origin: String?
        /// "machine (client credentials)" or "user".
        var signIn: String
        var accessTokenExpiresAt: String?
        var idTokenExpiresAt: String?
        var signedInAt: String?
        var lastRefreshAt: String?
        /// The identity in the profile's identity pool, and when its AWS credentials in the vault expire.
        var identityId: String?
        var awsCredentialsExpireAt: String?
        /// This machine as a remembered device (kept after sign-out).
        var device: Device?
        /// The identity provider's clock minus this machine's, when it is more than a minute.
        var clockOffsetSeconds: Int?
        var clock: String?
    }

    private struct Device: Encodable {
        var key: String
        var name: String
    }

    /// Beyond this many seconds, `status` says that the clocks differ.
    static let notableClockOffset = 60.0

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        let state = await session.store.bootstrap()
        let record = await session.store.storedRecord
        let now = TimeText.now
        // Tokens are timed by the provider's clock; the failure and refresh times by this machine's.
        let providerNow = session.store.clock.now()
        var report = Report(profile: session.profile.name, userPoolId: session.profile.userPoolId,
                            clientId: session.profile.clientId, backend: session.backend.rawValue, state: "\(state)",
                            usable: false, signIn: session.profile.grant == .clientCredentials ? "machine (client credentials)" : "user")
        var exitStatus = ExitStatus.success
        switch state {
        case .signedIn, .refreshing:
            report.usable = true
            if let failure = session.store.lastRefreshFailure() {
                report.problem = "the last refresh failed \(TimeText.relative(failure.at, now: now)) (\(failure.message)); "
                    + "the stored session is kept and the next 'authvault token' tries again"
            } else if let refresh = record?.refreshToken, refresh.count > 0, let expiry = record?.accessTokenExpiresAt, expiry <= providerNow {
                report.problem = "the access token expired \(TimeText.relative(expiry, now: providerNow)); the next 'authvault token' refreshes it"
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
        if session.profile.grant == .clientCredentials, report.problem != nil, exitStatus == .signInRequired {
            // No one signs in: the next token request fetches one.
            report.problem = "no token yet; the next 'authvault token' fetches one"
            report.usable = true
            exitStatus = .success
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
            if let offset = record.clockOffset, abs(offset) > Self.notableClockOffset {
                report.clockOffsetSeconds = Int(offset.rounded())
                report.clock = "this machine's clock is \(TimeText.span(offset)) \(offset > 0 ? "behind" : "ahead of") the identity "
                    + "provider's; tokens are timed by the provider's clock"
            }
        }
        report.identityId = record?.identityId
        report.awsCredentialsExpireAt = record?.awsCredentials.map { TimeText.rfc3339($0.expiresAt) }
        report.device = record?.device.map { Device(key: $0.key, name: $0.name) }
        if asJSON {
            try JSONOutput.write(report, to: context.standardOutput)
        } else {
            context.standardOutput.write(render(report, record: record, now: now, providerNow: providerNow))
        }
        if exitStatus != .success { throw CLIError(report.problem ?? "not usable", status: exitStatus) }
    }

    private func render(_ report: Report, record: CredentialRecord?, now: Double, providerNow: Double) -> String {
        var lines = ["Profile:    \(report.profile) (pool \(report.userPoolId), client \(report.clientId))",
                     "Vault:      \(report.backend)",
                     "State:      \(report.state)"]
        if report.signIn != "user" { lines.append("Sign-in:    \(report.signIn)") }
        if let user = report.user {
            lines.append("User:       \(user)\(report.username.map { $0 != user ? " (user name \($0))" : "" } ?? "")")
        }
        if let identities = report.identities, !identities.isEmpty { lines.append("Federated:  \(identities.joined(separator: ", "))") }
        if let expiry = record?.accessTokenExpiresAt, record?.hasSession == true {
            lines.append("Access:     \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))")
        }
        if let expiry = record?.idTokenExpiresAt, record?.hasSession == true {
            lines.append("ID token:   \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))")
        }
        if let refreshed = record?.lastRefreshAt, record?.hasSession == true {
            lines.append("Refreshed:  \(TimeText.rfc3339(refreshed)) (\(TimeText.relative(refreshed, now: now)))")
        }
        if let identityId = report.identityId { lines.append("Identity:   \(identityId)") }
        if let expiry = record?.awsCredentials?.expiresAt {
            lines.append("AWS keys:   \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))")
        }
        if let device = report.device { lines.append("Device:     this machine is '\(device.name)' (\(device.key))") }
        if let clock = report.clock { lines.append("Clock:      \(clock)") }
        if let problem = report.problem { lines.append("Note:       \(problem)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
