import AuthVaultApp

/// `authvault status`: who is signed in, until when, where the tokens are; and when not usable, why.
struct StatusCommand: CLICommand {
    static let json = JSONOutput.option("the status", schema: "status")
    static let all = OptionSpec.flag("all", help: "Show every configured profile.")
    static let name = "status"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show the profile's session: who, token expiry, vault backend, last refresh.",
        discussion: """
            Reads the vault only: it neither refreshes nor contacts Cognito. Exit status 3 when there is no session, 4 when
            the vault is locked. With --all, every profile is shown and the exit status is 0 once each could be reported;
            with --all --json, one object whose "profiles" each follow the status schema (docs/status-all.schema.json).
            """,
        options: [json, all])

    let asJSON: Bool
    let everyProfile: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
        everyProfile = arguments.flag(Self.all)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        guard everyProfile else {
            let shown = try await report(profile: context.profileName, context: context)
            if asJSON {
                try JSONOutput.write(shown.report, to: context.standardOutput)
            } else {
                context.standardOutput.write(render(shown, now: TimeText.now))
            }
            // The report says the problem once; the exit status is all that is left to give.
            if shown.exitStatus != .success {
                throw CLIError(alreadySaid: shown.report.problem ?? "not usable", status: shown.exitStatus)
            }
            return
        }
        let names: [String]
        do { names = try context.configStore.load().profiles.keys.sorted() } catch { throw CLIErrors.from(error) }
        var reports: [Shown] = []
        for name in names {
            do {
                reports.append(try await report(profile: name, context: context))
            } catch {
                let report = StatusReport(misconfigured: name, problem: error.message)
                reports.append(
                    Shown(
                        report: report, record: nil, refreshExpiry: nil, providerNow: TimeText.now,
                        exitStatus: error.status))
            }
        }
        if asJSON {
            try JSONOutput.write(
                AllReports(schemaVersion: StatusReport.schemaVersion, profiles: reports.map(\.report)),
                to: context.standardOutput)
        } else {
            let now = TimeText.now
            context.standardOutput.write(reports.map { render($0, now: now) }.joined(separator: "\n"))
        }
    }

    private struct AllReports: Encodable {
        let schemaVersion: Int
        let profiles: [StatusReport]
    }

    /// A profile's report, with what its text form adds, and the exit status it calls for.
    private struct Shown {
        let report: StatusReport
        let record: RecordFacts?
        var awsCredentialsExpiry: Double? = nil
        let refreshExpiry: Double?
        /// The identity provider's time when the report was made, which times the tokens.
        let providerNow: Double
        let exitStatus: ExitStatus
    }

    /// One profile's report.
    private func report(profile name: String, context: CommandContext) async throws(CLIError) -> Shown {
        let status = try await application(for: name) { () async throws(ApplicationError) in
            try await context.application.profileStatus(named: name)
        }
        let problem = status.problem.map {
            Self.words(
                $0, need: SignInNeed(status.profile, host: context.application.browserHost), now: status.now,
                providerNow: status.providerNow)
        }
        let exitStatus: ExitStatus =
            switch status.problem {
            case .vault(let error): CLIErrors.from(error, profile: name).status
            case let problem? where problem.requiresSignIn: .signInRequired
            default: .success
            }
        return Shown(
            report: StatusReport(status, problem: problem), record: status.record,
            awsCredentialsExpiry: status.awsCredentialsExpiry,
            refreshExpiry: status.refreshExpiry, providerNow: status.providerNow, exitStatus: exitStatus)
    }

    /// The problem as a person reads it, with the command that helps.
    private static func words(_ problem: StatusProblem, need: SignInNeed, now: Double, providerNow: Double) -> String {
        let profile = need.profile
        let login = Remedy.login(need)
        let token = Remedy.command("token", profile: profile)
        return switch problem {
        case .refreshFailing(let at, let reason):
            "the last refresh failed \(TimeText.relative(at, now: now)) (\(reason)); the stored session is kept and the next \(token) tries again"
        case .refreshTokenExpired(let at): "the refresh token expired \(TimeText.relative(at, now: now)); run \(login)"
        case .accessTokenExpired(let at):
            "the access token expired \(TimeText.relative(at, now: providerNow)); the next \(token) refreshes it"
        case .vault(let error): CLIErrors.from(error, profile: profile).message
        case .needsSignIn(let reason): "\(reason); run \(login)"
        case .notSignedIn: "not signed in; run \(login)"
        case .noMachineTokenYet: "no token yet; the next \(token) fetches one"
        }
    }

    /// The user's names, identities and the reasons come from the provider (claims, Cognito's messages): shown
    /// escaped.
    private func render(_ shown: Shown, now: Double) -> String {
        let report = shown.report
        let record = shown.record
        let providerNow = shown.providerNow
        let escaped = { (text: String) in ServerText.escaped(text, limit: .max) }
        let provider = report.userPoolId.map { "pool \($0)" } ?? report.issuer.map { "issuer \($0)" }
        var lines = [
            "Profile:    \(report.profile)\(provider.map { " (\($0), client \(report.clientId ?? "-"))" } ?? "")"
        ]
        if let backend = report.backend { lines.append("Vault:      \(backend)") }
        lines.append("State:      \(escaped(report.stateText))")
        if report.signIn != "user" { lines.append("Sign-in:    \(report.signIn)") }
        if let user = report.user {
            lines.append(
                "User:       \(escaped(user))\(report.username.map { $0 != user ? " (user name \(escaped($0)))" : "" } ?? "")"
            )
        }
        if let identities = report.identities, !identities.isEmpty {
            lines.append("Federated:  \(escaped(identities.joined(separator: ", ")))")
        }
        if let expiry = record?.accessTokenExpiresAt, record?.hasSession == true {
            lines.append(
                "Access:     \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))"
            )
        }
        if let expiry = record?.idTokenExpiresAt, record?.hasSession == true {
            lines.append(
                "ID token:   \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))"
            )
        }
        if let refreshed = record?.lastRefreshAt, record?.hasSession == true {
            lines.append("Refreshed:  \(TimeText.rfc3339(refreshed)) (\(TimeText.relative(refreshed, now: now)))")
        }
        if let expiry = shown.refreshExpiry, record?.hasSession == true {
            lines.append(
                "Refresh:    \(expiry > now ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: now)))"
            )
        }
        if let identityId = report.identityId { lines.append("Identity:   \(escaped(identityId))") }
        if let expiry = shown.awsCredentialsExpiry {
            lines.append(
                "AWS keys:   \(expiry > providerNow ? "valid until" : "expired at") \(TimeText.rfc3339(expiry)) (\(TimeText.relative(expiry, now: providerNow)))"
            )
        }
        if let device = report.device {
            lines.append("Device:     this machine is '\(escaped(device.name))' (\(escaped(device.key)))")
        }
        if let clock = report.clock { lines.append("Clock:      \(clock)") }
        if let problem = report.problem { lines.append("Note:       \(escaped(problem))") }
        for pending in report.pendingRevocations ?? [] {
            lines.append(
                "Pending:    "
                    + PendingRevocationWords.sentence(
                        profile: report.profile, validUntil: pending.validUntil,
                        byDefault: pending.validUntilByDefault))
            lines.append("            The last try, at \(pending.lastTriedAt), failed: \(escaped(pending.lastFailure))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
