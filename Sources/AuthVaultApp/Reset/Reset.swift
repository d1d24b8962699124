import AuthStore
import SecureFiles

/// What `reset` is asked to do.
public struct ResetRequest: Sendable {
    /// The absolute path of the `authvault` binary (as `ToolSetup` takes it: undo obeys setup's trust rules).
    public let executable: String
    /// Work out and report everything, change nothing.
    public let dryRun: Bool

    public init(executable: String, dryRun: Bool) {
        self.executable = executable
        self.dryRun = dryRun
    }
}

/// What `reset` did (or, on a dry run, would do), step by step; a step that failed is reported and the others go on.
public struct ResetReport: Sendable {
    public struct ProfileSignOut: Sendable {
        public let profile: String
        /// Nil on a dry run, and when the profile could not be signed out.
        public let revocation: Revocation?
        /// Why the profile could not be signed out here (its local state goes anyway, with the data directory).
        public let failure: ApplicationError?
    }

    /// What became of a profile's refresh token at the server.
    public enum Revocation: Sendable, Equatable {
        case revoked
        /// No session was stored: nothing to revoke.
        case nothingStored
        /// The provider names no revocation endpoint: the token stays valid there until it expires.
        case unavailable
        /// The revocation failed (in words): the token stays valid at the server until it expires.
        case failed([String])

        init(_ result: SignOutResult) {
            if !result.remoteFailures.isEmpty {
                self = .failed(result.remoteFailures)
            } else if result.revocationUnavailable {
                self = .unavailable
            } else {
                self = result.revoked == true ? .revoked : .nothingStored
            }
        }
    }

    public struct SetupUndo: Sendable {
        public let setup: SetupClaim
        public let plan: SetupPlan?
        public let failure: SetupError?
    }

    public var profiles: [ProfileSignOut] = []
    public var setups: [SetupUndo] = []
    /// Reading the setup record failed: no setup was undone.
    public var recordFailure: SetupError?
    /// Why the vault could not be locked (its key may be left in the user keyring).
    public var vaultLockFailure: ApplicationError?
    /// The profiles whose vault items (the Secret Service's, which outlive the data directory) could not be erased.
    public var profileRemovalFailures: [(profile: String, error: ApplicationError)] = []
    public var agent: AgentStop = .notRunning
    /// The files and directories removed (or that would be), and those that could not be.
    public var removed: [String] = []
    public var notRemoved: [ResidueFailure] = []
    /// A setup could not be undone: the profiles, the configuration and the data (the record of setups) were kept,
    /// so that a later reset can undo it.
    public var keptForAnotherTry = false

    /// Every step done as asked (revocations aside, which each profile's result reports).
    public var isComplete: Bool {
        profiles.allSatisfy { $0.failure == nil } && setups.allSatisfy { $0.failure == nil } && recordFailure == nil
            && vaultLockFailure == nil && profileRemovalFailures.isEmpty && notRemoved.isEmpty && agent != .refused
            && !keptForAnotherTry
    }
}

extension Application {
    /// Leaves AuthVault as this user: signs out of every profile (revoking its refresh token through `signOut`, where a
    /// revocation that failed is for the sign-out to keep and retry), undoes every recorded setup, removes each
    /// profile with everything its vaults keep (`removeProfile`: the Secret Service's items too), stops the agent,
    /// locks the vault (no key left in the kernel's user keyring), and removes the configuration file and the data
    /// directory. Local state goes even where a remote step fails.
    public func reset(_ request: ResetRequest) async -> ResetReport {
        var report = ResetReport()
        let names = ((try? configuration())?.profiles.keys).map { $0.sorted() } ?? []
        for name in names {
            report.profiles.append(
                request.dryRun ? .init(profile: name, revocation: nil, failure: nil) : await signOutForReset(name))
        }
        undoSetups(request, into: &report)
        let residue = ResidueRemoval(configPath: configPath, dataDirectory: dataDirectory)
        if request.dryRun {
            report.agent =
                agentSocketPath.flatMap { RunningAgentProcess.find(socketPath: $0) } == nil ? .notRunning : .stopped
            report.removed = residue.targets
            return report
        }
        report.agent = agentSocketPath.map { RunningAgentProcess.stop(socketPath: $0) } ?? .notRunning
        // A setup not undone needs its profile and the record for the next try: nothing local goes yet.
        report.keptForAnotherTry = report.recordFailure != nil || report.setups.contains { $0.failure != nil }
        if !report.keptForAnotherTry {
            for name in names {
                do { _ = try await removeProfile(named: name) } catch {
                    report.profileRemovalFailures.append((name, error))
                }
            }
        }
        do { _ = try await lockFileVault() } catch { report.vaultLockFailure = error }
        if !report.keptForAnotherTry { (report.removed, report.notRemoved) = residue.remove() }
        return report
    }

    private func signOutForReset(_ name: String) async -> ResetReport.ProfileSignOut {
        do {
            let signOut = try await signOut(profile: name, everywhere: false, logoutPage: false)
            return .init(profile: name, revocation: ResetReport.Revocation(signOut.result), failure: nil)
        } catch {
            return .init(profile: name, revocation: nil, failure: error)
        }
    }

    /// Every recorded setup undone (planned, on a dry run), the latest first.
    private func undoSetups(_ request: ResetRequest, into report: inout ResetReport) {
        let setups: [SetupClaim]
        do { setups = try ToolSetup.recordedSetups(application: self) } catch {
            report.recordFailure = error
            return
        }
        for claim in setups.reversed() {
            let setup = ToolSetup(application: self, profile: claim.profile, executable: request.executable)
            do {
                let plan = try setup.plan(claim.request, undo: true)
                if !request.dryRun { try setup.apply(plan) }
                report.setups.append(.init(setup: claim, plan: plan, failure: nil))
            } catch {
                report.setups.append(.init(setup: claim, plan: nil, failure: error))
            }
        }
    }
}
