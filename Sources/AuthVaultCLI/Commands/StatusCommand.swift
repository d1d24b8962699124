import AuthStore
import AuthVaultApp
import CognitoAuth
import FoundationEssentials
import NetworkHosts
import TokenVault

/// `authvault status`: who is signed in, until when, where the tokens are; and when not usable, why.
struct StatusCommand: CLICommand {
    static let json = OptionSpec.flag("json", help: "Print the status as JSON (schema: docs/status.schema.json).")
    static let all = OptionSpec.flag("all", help: "Show every configured profile.")
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the profile's session: who, token expiry, vault backend, last refresh.",
        discussion: """
        Reads the vault only: it neither refreshes nor contacts Cognito. Exit status 3 when there is no session, 4 when
        the vault is locked. With --all, every profile is shown and the exit status is 0 once each could be reported.
        """,
        options: [json, all])

    /// `schemaVersion` of the JSON: raised only when a field changes meaning or goes; new fields keep it.
    static let schemaVersion = 1

    let asJSON: Bool
    let everyProfile: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
        everyProfile = arguments.flag(Self.all)
    }

    private struct Report: Encodable {
        var schemaVersion = StatusCommand.schemaVersion
        var profile: String
        /// Nil for a profile of another OpenID provider, whose issuer is shown instead.
        var userPoolId: String?
        var issuer: String?
        var clientId: String?
        var backend: String?
        var state: StatusState
        var stateText: String
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
        /// Where the app client's refresh-token validity is configured (`configure --refresh-token-validity`).
        var refreshTokenExpiresAt: String?
        /// "user", or "machine (client credentials)" for a profile of the client-credentials grant.
        var signIn = "user"
        /// The identity in the profile's identity pool, and when its AWS credentials in the vault expire.
        var identityId: String?
        var awsCredentialsExpireAt: String?
        /// This machine as a remembered device (kept after sign-out).
        var device: Device?
        /// The identity provider's clock minus this machine's, when it is more than a minute.
        var clockOffsetSeconds: Int?
        /// An offset of more than `ServerClock.maximumOffset`, seen and not adopted.
        var clockOffsetRefusedSeconds: Int?
        var clock: String?
    }

    private struct Device: Encodable {
        var key: String
        var name: String
    }

    /// Beyond this many seconds, `status` says that the clocks differ.
    static let notableClockOffset = 60.0

    func run(in context: CommandContext) async throws(CLIError) {
        guard everyProfile else {
            let shown = try await report(profile: nil, context: context)
            if asJSON {
                try JSONOutput.write(shown.report, to: context.standardOutput)
            } else {
                context.standardOutput.write(render(shown, now: TimeText.now))
            }
            if shown.exitStatus != .success { throw CLIError(shown.report.problem ?? "not usable", status: shown.exitStatus) }
            return
        }
        let names: [String]
        do { names = try context.configStore.load().profiles.keys.sorted() } catch { throw CLIErrors.from(error) }
        var reports: [Shown] = []
        for name in names {
            do {
                reports.append(try await report(profile: name, context: context))
            } catch {
                let report = Report(profile: name, state: .misconfigured, stateText: "cannot be used", usable: false, problem: error.message)
                reports.append(Shown(report: report, record: nil, refreshExpiry: nil, providerNow: TimeText.now, exitStatus: error.status))
            }
        }
        if asJSON {
            try JSONOutput.write(AllReports(schemaVersion: Self.schemaVersion, profiles: reports.map(\.report)), to: context.standardOutput)
        } else {
            let now = TimeText.now
            context.standardOutput.write(reports.map { render($0, now: now) }.joined(separator: "\n"))
        }
    }

    private struct AllReports: Encodable {
        let schemaVersion: Int
        let profiles: [Report]
    }

    /// A profile's report, with what its text form adds, and the exit status it calls for.
    private struct Shown {
        let report: Report
        let record: SessionFacts?
        var awsCredentialsExpiry: Double? = nil
        let refreshExpiry: Double?
        /// The identity provider's time when the report was made, which times the tokens.
        let providerNow: Double
        let exitStatus: ExitStatus
    }

    /// One profile's report (the current one when nil).
    private func report(profile name: String?, context: CommandContext) async throws(CLIError) -> Shown {
        let session = try await ProfileSession.open(context, profile: name)
        let state = await session.store.bootstrap()
        let record = await session.store.sessionFacts()
        let now = TimeText.now
        // Tokens are timed by the provider's clock; the failure and refresh times by this machine's.
        let providerNow = session.store.clock.now()
        let refreshFailure = session.store.lastRefreshFailure()
        let refreshExpiry = record?.canRefresh != true ? nil
            : session.profile.refreshTokenExpiry(signedInAt: record?.signedInAt, lastRefreshAt: record?.lastRefreshAt)
        let accessExpired = record?.accessTokenExpiresAt.map { $0 <= providerNow } ?? false
        let word = StatusState.of(state, accessExpired: accessExpired, refreshFailed: refreshFailure != nil,
                                  refreshExpired: refreshExpiry.map { $0 <= now } ?? false)
        var report = Report(profile: session.profile.name, userPoolId: session.profile.userPoolId, issuer: session.profile.issuer,
                            clientId: session.profile.clientId, backend: session.backend.rawValue, state: word,
                            stateText: "\(state)", usable: false)
        if session.profile.grant == .clientCredentials { report.signIn = "machine (client credentials)" }
        var exitStatus = ExitStatus.success
        switch state {
        case .signedIn, .refreshing:
            report.usable = true
            if let failure = refreshFailure {
                report.problem = "the last refresh failed \(TimeText.relative(failure.at, now: now)) (\(failure.message)); "
                    + "the stored session is kept and the next 'authvault token' tries again"
            } else if word == .needsLogin, let refreshExpiry {
                report.usable = false
                report.problem = "the refresh token expired \(TimeText.relative(refreshExpiry, now: now)); run 'authvault login'"
                exitStatus = .signInRequired
            } else if record?.canRefresh == true, let expiry = record?.accessTokenExpiresAt, expiry <= providerNow {
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
            report.refreshTokenExpiresAt = refreshExpiry.map(TimeText.rfc3339)
            // The store's offset, not the record's number: it follows a wall clock corrected since it was measured.
            if let offset = session.store.clock.offset, abs(offset) > Self.notableClockOffset {
                report.clockOffsetSeconds = TimeText.wholeSeconds(offset)
                report.clock = "this machine's clock is \(TimeText.span(offset)) \(offset > 0 ? "behind" : "ahead of") the identity "
                    + "provider's; tokens are timed by the provider's clock"
            } else if let refused = session.store.clock.refusedOffset {
                report.clockOffsetRefusedSeconds = TimeText.wholeSeconds(refused)
                report.clock = "the identity provider's answers put its clock \(TimeText.span(refused)) \(refused > 0 ? "ahead of" : "behind") "
                    + "this machine's: more than \(TimeText.span(ServerClock.maximumOffset)), so not adopted, and tokens are timed by "
                    + "this machine's clock; check this machine's clock (or a proxy on the way)"
            }
        }
        // Only what the profile's identity pool and role would still be served: a set issued for others is not.
        let pool = session.profile.identityPoolId
        let scope = pool.map { AWSCredentialScope(identityPoolId: $0, roleARN: session.profile.awsRoleARN) }
        let awsCredentials = record?.awsCredentials.flatMap { scope != nil && $0.scope == scope ? $0 : nil }
        report.identityId = pool != nil && record?.identityPoolId == pool ? record?.identityId : nil
        report.awsCredentialsExpireAt = awsCredentials.map { TimeText.rfc3339($0.expiresAt) }
        report.device = record?.device.map { Device(key: $0.key, name: $0.name) }
        return Shown(report: report, record: record, awsCredentialsExpiry: awsCredentials?.expiresAt, refreshExpiry: refreshExpiry,
                     providerNow: providerNow, exitStatus: exitStatus)
    }

    /// The user's names, identities and the reasons come from the provider (claims, Cognito's messages): shown
    /// escaped.
    private func render(_ shown: Shown, now: Double) -> String {
        let report = shown.report, record = shown.record, providerNow = shown.providerNow
        let escaped = { (text: String) in ServerText.escaped(text, limit: .max) }
        let provider = report.userPoolId.map { "pool \($0)" } ?? report.issuer.map { "issuer \($0)" }
        var lines = ["Profile:    \(report.profile)\(provider.map { " (\($0), client \(report.clientId ?? "-"))" } ?? "")"]
        if let backend = report.backend { lines.append("Vault:      \(backend)") }
        lines.append("State:      \(escaped(report.stateText))")
        if report.signIn != "user" { lines.append("Sign-in:    \(report.signIn)") }
        if let user = report.user {
            lines.append("User:       \(escaped(user))\(report.username.map { $0 != user ? " (user name \(escaped($0)))" : "" } ?? "")")
        }
        if let identities = report.identities, !identities.isEmpty { lines.append("Federated:  \(escaped(identities.joined(separator: ", ")))") }
        if let expiry = record?.accessTokenExpiresAt, record?.hasSession == true {
            lines.append("Access:     \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))")
        }
        if let expiry = record?.idTokenExpiresAt, record?.hasSession == true {
            lines.append("ID token:   \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))")
        }
        if let refreshed = record?.lastRefreshAt, record?.hasSession == true {
            lines.append("Refreshed:  \(TimeText.rfc3339(refreshed)) (\(TimeText.relative(refreshed, now: now)))")
        }
        if let expiry = shown.refreshExpiry, record?.hasSession == true {
            lines.append("Refresh:    \(expiry > now ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: now)))")
        }
        if let identityId = report.identityId { lines.append("Identity:   \(escaped(identityId))") }
        if let expiry = shown.awsCredentialsExpiry {
            lines.append("AWS keys:   \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))")
        }
        if let device = report.device { lines.append("Device:     this machine is '\(escaped(device.name))' (\(escaped(device.key)))") }
        if let clock = report.clock { lines.append("Clock:      \(clock)") }
        if let problem = report.problem { lines.append("Note:       \(escaped(problem))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
