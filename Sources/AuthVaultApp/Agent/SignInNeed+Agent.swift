import AuthAgent

extension SignInNeed {
    /// The need as the agent's sign-in answer carries it to a client that may have no configuration of the profile.
    var agentSignIn: AgentSignIn {
        AgentSignIn(profile: profile, mode: mode?.rawValue, flow: flow?.rawValue)
    }

    /// The need the agent's answer names: its profile, the way to ask for and the flow where this client knows
    /// them (an unknown one, from a newer agent, is left out: a plain login); the route itself is the agent's.
    init(_ answer: AgentSignIn) {
        self.init(
            profile: answer.profile, route: nil, mode: answer.mode.flatMap(SignInRoute.Asked.Mode.init(rawValue:)),
            flow: answer.flow.flatMap(AuthFlowChoice.init(rawValue:)))
    }
}

extension AgentFailure {
    /// Whose sign-in the agent's answer is about and how it signs in, as the agent says (it may have chosen the
    /// profile); else only the profile `asked`.
    func signInNeed(asked: String) -> SignInNeed {
        signIn.map(SignInNeed.init) ?? SignInNeed(profile: asked)
    }
}
