import AuthAgent
import AuthCrypto
import AuthStore
import CognitoAuth

/// A token handed to another tool, with what the tool's protocol wants beside it.
public struct HelperToken: Sendable {
    public let token: String
    /// When the token expires by this machine's clock, which the tool compares it with.
    public let expiresAt: Double
    /// Cognito's user name, for protocols that pair the token with a user name.
    public let username: String
    public let profile: String
}

extension Application {
    /// Where the agent listens: `$AUTHVAULT_AGENT_SOCKET`, else `$XDG_RUNTIME_DIR/authvault/agent.sock`; nil when neither is set.
    public var agentSocketPath: String? {
        if let named = namedAgentSocket { return named }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return AgentClient.socketPath(runtimeDirectory: runtime)
    }

    /// `$AUTHVAULT_AGENT_UID`: the user whose agent serves this one through a bind-mounted socket (inside a
    /// container); nil, for this process's own user, when unset or not a number.
    public var agentUid: UInt32? {
        environment.nonEmpty("AUTHVAULT_AGENT_UID").flatMap { UInt32($0) }
    }

    /// A valid token for `profile` (`defaultProfileName` when nil), without ever asking anyone to sign in: from the
    /// agent when one runs, else directly from the vault (refreshing first when due).
    /// - Parameter isExplicit: the profile was named (`--profile`, `$AUTHVAULT_PROFILE`); when it was not and this
    ///   machine configures none, the agent's choice answers (a remote shell's `token`).
    nonisolated(nonsending) public func helperToken(
        _ kind: TokenKind, profile: String? = nil, isExplicit: Bool = true
    ) async throws(ApplicationError) -> HelperToken {
        let explicit = profile != nil && isExplicit
        let agent = try tokenFromAgent(kind, profile: profile ?? defaultProfileName, isExplicit: explicit)
        if case .served(let token) = agent { return token }
        let session = try await directSession(named: profile, after: agent)
        // A token an earlier process served from this very record ends here: nothing decrypted, nothing decoded.
        if let kept = session.store.keptFreshToken(kind) {
            trace("the \(kind) token of profile '\(session.profile.name)' was kept by an earlier process")
            return HelperToken(
                token: kept.token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, expiresAt: kept.expiresAt,
                username: kept.username ?? session.profile.name, profile: session.profile.name)
        }
        let served: ServedToken
        do {
            // A fresh token at hand ends here, on this thread; anything else goes through the store's actor.
            if let atHand = session.store.freshTokenAtHand(kind) {
                served = atHand
            } else {
                served = try await session.store.validToken(kind)
                await session.store.keepForNextProcess(kind)
            }
        } catch {
            throw ApplicationError(error, need: session.signInNeed)
        }
        return HelperToken(
            token: served.token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) },
            expiresAt: session.store.clock.localTime(ofProviderTime: served.expiresAt ?? 0),
            username: served.username ?? session.profile.name,
            profile: session.profile.name)
    }

    /// The agent's answer; the direct path when no agent runs (or it misbehaves). What the agent says about the
    /// session itself (sign in, vault locked, network) is final.
    private func tokenFromAgent(_ kind: TokenKind, profile: String, isExplicit: Bool) throws(ApplicationError)
        -> AgentAnswer<HelperToken>
    {
        guard let path = agentSocketPath else { return .direct(unreachable: nil) }
        do {
            // Long enough for a refresh in the mandatory window; an agent that hangs costs this once.
            let client = AgentClient(socketPath: path, timeout: .seconds(5), agentUid: agentUid)
            let token = try askingAgent(profile: profile, isExplicit: isExplicit) { (name) throws(AgentClientError) in
                try client.token(profile: name, kind: kind)
            }
            let name = token.profile ?? profile
            trace("the agent at \(path) served the \(kind) token of profile '\(name)'")
            return .served(HelperToken(token, profile: name))
        } catch {
            trace("the agent at \(path) did not serve profile '\(profile)' (\(error))")
            return try finalAgentAnswer(error, profile: profile, path: path)
        }
    }

    /// What the agent said about the session itself (sign in, vault locked, network) is final and thrown; for
    /// anything else (no agent, a misbehaving one, a request it cannot serve) the direct path, which says so when
    /// the agent the user named at `path` could not be reached and it has no profile either. Another
    /// user's agent (`agentUid`, a container's client) is final about the profiles it does not serve too: this
    /// user's direct path has no such profile; and so is the agent that stands for a configuration this client
    /// does not have (a remote shell), whose direct path has no profile either. A sign-in answer names how the
    /// profile signs in here, read from the configuration only then (the agent's path reads none), else as the agent
    /// says it signs in there.
    func finalAgentAnswer<Served>(_ error: AgentClientError, profile: String, path: String) throws(ApplicationError)
        -> AgentAnswer<Served>
    {
        guard case .server(let failure) = error else {
            return .direct(unreachable: unreachableNamedAgent(error, path: path))
        }
        switch failure.code {
        case .signInRequired:
            let need = (try? configStore.profile(named: profile)).map { SignInNeed($0, host: browserHost) }
            throw .agent(need ?? failure.signInNeed(asked: profile), failure: failure)
        case .vaultLocked, .network: throw .agent(SignInNeed(profile: profile), failure: failure)
        case .unknownProfile where agentUid != nil || agentStandsForConfiguration:
            throw .agent(SignInNeed(profile: profile), failure: failure)
        case .unknownProfile, .badRequest, .internal: return .direct(unreachable: nil)
        }
    }
}
