import AuthAgent

/// A client with no configuration of its own (a remote shell reaching the agent through `ssh -R`, a container)
/// leaves to the agent what its configuration would decide: which profile answers, and whether a tool's target
/// gets a token at all. Nothing here is on the warm path: each is asked only once the local answer is "none".
extension Application {
    /// Whether the agent's word stands for this machine's configuration: `$AUTHVAULT_AGENT_SOCKET` names an agent
    /// (a forwarded or mounted socket; the default socket's agent reads this machine's own configuration), and
    /// this configuration names no profile: no file, or none in it. Unreadable counts as configured, so that the
    /// direct path says what is wrong with it.
    var agentStandsForConfiguration: Bool {
        namedAgentSocket != nil && (try? configStore.helperHosts())?.isEmpty == true
    }

    /// Whether a helper's target goes to the agent to decide, once the local rules gave no profile:
    /// `$AUTHVAULT_AGENT_SOCKET` names an agent, and this machine's configuration cannot decide (it has no
    /// profile, or not the one named).
    public func agentDecidesHelperProfile(named profile: String, isExplicit: Bool) -> Bool {
        guard namedAgentSocket != nil, let configured = try? configStore.helperHosts()
        else { return false }
        return configured.isEmpty || (isExplicit && !configured.contains { $0.profile == profile })
    }

    /// The agent's token for `target`: from `profile` when its helper hosts list the target, else (nil) from the
    /// profile the agent chooses among those its socket serves. Nil when the agent serves none for it (the
    /// restricted socket's one "not served"); without a session, a locked vault or a network failure the agent's
    /// word is final; no agent at all is said as such (this machine has no profile to answer instead).
    public func agentHelperToken(_ kind: TokenKind, for target: HelperTarget, profile: String?)
        throws(ApplicationError) -> HelperToken?
    {
        guard let path = agentSocketPath else { return nil }
        guard let sent = target.agentTarget else { return nil }
        let asked = profile ?? defaultProfileName
        let token: AgentToken
        do {
            token = try AgentClient(socketPath: path, timeout: .seconds(5), agentUid: agentUid).token(
                profile: profile, kind: kind, target: sent)
        } catch {
            trace("the agent at \(path) gave no token for \(target.scheme)://\(target.endpoint) (\(error))")
            if case .server(let failure) = error {
                if failure.code == .unknownProfile { return nil }
                throw .agent(failure.signInNeed(asked: asked), failure: failure)
            }
            if let unreachable = unreachableNamedAgent(error, path: path) { throw unreachable }
            throw .agent(SignInNeed(profile: asked), failure: AgentFailure(.internal, error.description))
        }
        let name = token.profile ?? asked
        trace(
            "the agent at \(path) served the \(kind) token of profile '\(name)' for \(target.scheme)://\(target.endpoint)"
        )
        return HelperToken(token, profile: name)
    }

    /// `ask` with `profile`; when the agent does not serve it, it was not named explicitly and the agent stands
    /// for this machine's configuration (a remote shell's `token`), `ask` again with none: the agent's choice.
    func askingAgent<Answer>(
        profile: String, isExplicit: Bool, _ ask: (String?) throws(AgentClientError) -> Answer
    ) throws(AgentClientError) -> Answer {
        do {
            return try ask(profile)
        } catch {
            guard !isExplicit, case .server(let failure) = error, failure.code == .unknownProfile,
                agentStandsForConfiguration
            else { throw error }
            return try ask(nil)
        }
    }
}

extension HelperToken {
    /// An agent's token, as a tool gets it.
    init(_ token: AgentToken, profile: String) {
        self.init(
            token: token.token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) },
            expiresAt: token.expiresAt ?? 0, username: token.username ?? profile, profile: profile)
    }
}
