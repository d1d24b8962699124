import AuthCrypto
import AuthStore
import CognitoAuth
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Answers requests from the stores it holds. A token the store holds fresh (`freshToken`) is answered right on the
/// connection's thread, with no task and no actor hop; anything else (a token near expiry, status, lock) goes to the
/// stores while the connection's thread waits. There is no cache here to disagree with the stores.
final class AgentService: Sendable {
    private let provider: any AgentProfileProvider
    let registry: ProfileRegistry
    private let version: String
    private let log: @Sendable (String) -> Void

    init(provider: any AgentProfileProvider, version: String, log: @escaping @Sendable (String) -> Void) {
        self.provider = provider
        registry = ProfileRegistry(provider: provider)
        self.version = version
        self.log = log
    }

    /// Appends to `output` the reply to `line` (a request without its newline). Call on a dedicated thread only.
    /// - Parameter served: what the connection's user may ask (another user: its profiles' tokens and nothing else).
    func answer(_ line: ArraySlice<UInt8>, served: ServedProfiles, into output: inout [UInt8]) {
        let request: AgentRequest
        do {
            request = try AgentRequest.parse(line)
        } catch {
            return output.append(contentsOf: AgentReply.failure(error).line)
        }
        if let refusal = served.refusal(of: request) {
            return output.append(contentsOf: AgentReply.failure(refusal).line)
        }
        switch request {
        case .token(let named, let kind, let target):
            // A named profile without a target (every local client's request) has no choice to make.
            let chosen = named != nil && target == nil ? named : choose(named, for: target, served: served)
            guard let profile = chosen else {
                return output.append(contentsOf: AgentReply.failure(served.noneChosen(for: target)).line)
            }
            let told = named == nil ? profile : nil
            registry.forgetIfChanged(profile)
            let fresh = registry.madeStore(for: profile).flatMap { store in
                store.freshToken(kind).map { (store.clock, $0) }
            }
            var line =
                fresh.map { Self.tokenLine($1, clock: $0, profile: told) }
                ?? BlockingWait.run { await self.tokenReply(profile: profile, kind: kind, served: served, told: told) }
            output.append(contentsOf: line)
            line.wipe()
        case .awsCredentials(let named, let guest):
            guard let profile = named ?? choose(nil, for: nil, served: served) else {
                return output.append(contentsOf: AgentReply.failure(served.noneChosen(for: nil)).line)
            }
            registry.forgetIfChanged(profile)
            var line = BlockingWait.run { await self.awsCredentials(profile: profile, guest: guest, served: served) }
                .line
            output.append(contentsOf: line)
            line.wipe()
        case .status(let profile):
            let reply = BlockingWait.run { await self.status(profile: profile) }
            output.append(contentsOf: reply.line)
        case .lock:
            BlockingWait.run { await self.lock() }
            output.append(contentsOf: AgentReply.done.line)
        case .unlock:
            let reply = BlockingWait.run { await self.unlock() }
            output.append(contentsOf: reply.line)
        case .version:
            let reply = AgentReply.version(
                AgentVersion(version: version, protocolVersion: AgentRequest.protocolVersion, pid: getpid()))
            output.append(contentsOf: reply.line)
        case .ping:
            output.append(contentsOf: AgentReply.done.line)
        }
    }

    /// The profile the host chooses for a request naming a target or no profile, among those `served`; nil when
    /// none may answer (a host that cannot read its settings is logged, and chooses none).
    private func choose(_ named: String?, for target: AgentTarget?, served: ServedProfiles) -> String? {
        let provider = provider
        let choices = served.choices
        let registry = registry
        // The served stores, on the agent's vaults: a lock holds for this choice too.
        let stores: ServedStores = { profile in
            registry.forgetIfChanged(profile)
            return try? await registry.store(for: profile)
        }
        let result = BlockingWait.run { () async -> Result<String?, AgentFailure> in
            do throws(AgentFailure) {
                return .success(
                    try await provider.chooseProfile(named: named, for: target, among: choices, stores: stores))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let chosen?) where choices?.contains(chosen) ?? true: return chosen
        case .success: return nil
        case .failure(let error):
            log("cannot choose a profile: \(error)")
            return nil
        }
    }

    /// The store's token (refreshed, once for all callers, when due) as a reply line, which holds the token: the
    /// caller clears it once sent.
    /// - Parameter told: the profile's name for the reply, when the agent chose it.
    private func tokenReply(profile: String, kind: TokenKind, served: ServedProfiles, told: String?) async -> [UInt8] {
        let token: ServedToken
        let clock: ServerClock
        do throws(AgentFailure) {
            let store = try await registry.store(for: profile)
            do {
                token = try await store.validToken(kind)
            } catch {
                throw AgentFailure(error, profile: profile)
            }
            clock = store.clock
        } catch {
            if error.code != .signInRequired && error.code != .unknownProfile { log("profile '\(profile)': \(error)") }
            return AgentReply.failure(await shown(error, profile: profile, served: served)).line
        }
        return Self.tokenLine(token, clock: clock, profile: told)
    }

    /// The reply line of a token the store served, its expiry on this machine's clock.
    private static func tokenLine(_ token: ServedToken, clock: ServerClock, profile: String?) -> [UInt8] {
        let expiresAt = token.expiresAt.map { clock.localTime(ofProviderTime: $0) }
        return AgentReply.token(
            AgentToken(token: token.token, expiresAt: expiresAt, username: token.username, profile: profile)
        ).line
    }

    /// The store's credentials (kept in memory and in the vault while they last the minimum, so no cache here). A
    /// guest's are refused while the profile holds a session: they would replace the user's identity.
    private func awsCredentials(profile: String, guest: Bool, served: ServedProfiles) async -> AgentReply {
        do throws(AgentFailure) {
            let store = try await registry.store(for: profile)
            let request = try await provider.awsCredentialRequest(profile: profile, guest: guest)
            await store.bootstrap()
            if guest, await store.recordFacts()?.hasSession == true {
                throw AgentFailure(
                    .badRequest, "Profile '\(profile)' is signed in: its AWS credentials are the user's, not a guest's."
                )
            }
            do {
                return .awsCredentials(
                    try await store.validAWSCredentials(request).expiringOnLocalClock(of: store.clock))
            } catch {
                throw AgentFailure(error, profile: profile)
            }
        } catch {
            if error.code != .signInRequired && error.code != .unknownProfile && error.code != .badRequest {
                log("profile '\(profile)': \(error)")
            }
            return .failure(await shown(error, profile: profile, served: served))
        }
    }

    /// `failure` as the connection may see it (`ServedProfiles.told`); a sign-in answer to the agent's own user says
    /// how the profile signs in here, as the host knows it.
    private func shown(_ failure: AgentFailure, profile: String, served: ServedProfiles) async -> AgentFailure {
        guard failure.code == .signInRequired, served.isOwner else { return served.told(failure, profile: profile) }
        return AgentFailure(failure.code, failure.message, signIn: await provider.signIn(profile: profile))
    }

    /// The named profile (made if needed), or every profile the agent holds.
    private func status(profile: String?) async -> AgentReply {
        var profiles: [AgentProfileStatus] = []
        for name in profile.map({ [$0] }) ?? registry.profiles {
            registry.forgetIfChanged(name)
            let store: AuthStore
            do {
                store = try await registry.store(for: name)
            } catch {
                if profile != nil { return .failure(error) }
                continue
            }
            profiles.append(AgentProfileStatus(profile: name, state: await store.bootstrap()))
        }
        return .status(profiles)
    }

    /// Keys first, then the sessions in memory: a store made after this finds its vault locked until `unlock`.
    private func lock() async {
        await provider.lockVaults()
        registry.forgetAll()
        log("locked: vault keys and sessions dropped from memory")
    }

    /// The stores that found their vault locked read it again on their next request.
    private func unlock() async -> AgentReply {
        do {
            try await provider.unlockVaults()
        } catch {
            log("unlock failed: \(error)")
            return .failure(error)
        }
        log("unlocked")
        return .done
    }
}
