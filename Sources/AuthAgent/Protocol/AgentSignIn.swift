import BoundedJSON

/// How the profile of a sign-in answer signs in, by the agent's configuration and the place it runs: what a client
/// with no configuration of that profile (a remote shell, a container) names in its remedy. Sent as the error's
/// `"signIn"` object, which a client that does not know it ignores; only the agent's own user is told it.
public struct AgentSignIn: Sendable, Equatable {
    public let profile: String
    /// The way `login` is to be asked for there ("paste", `SignInRoute.Asked.Mode`); nil: a plain login does.
    public let mode: String?
    /// The user-pool flow to name ("email-otp"); nil for none.
    public let flow: String?

    public init(profile: String, mode: String?, flow: String?) {
        self.profile = profile
        self.mode = mode
        self.flow = flow
    }

    var json: JSONValue {
        .object(
            ("profile", .string(profile)), ("mode", mode.map(JSONValue.string)), ("flow", flow.map(JSONValue.string)))
    }

    /// The object as sent; nil (the answer read without it) when it is no object with a profile, or a field is no
    /// string.
    init?(_ value: JSONValue?) {
        guard let value, let profile = value["profile"]?.string, !profile.isEmpty else { return nil }
        let mode = value["mode"]
        let flow = value["flow"]
        guard mode == nil || mode?.string != nil, flow == nil || flow?.string != nil else { return nil }
        self.init(profile: profile, mode: mode?.string, flow: flow?.string)
    }
}
