/// Whose session a use needed and how that profile signs in: what the remedy of a sign-in-required outcome names, so
/// the command line words it without reading the configuration again.
public struct SignInNeed: Sendable, Equatable {
    public let profile: String
    /// The profile's configured way of signing in; nil where the application does not know it (then a plain login).
    public let flow: AuthFlowChoice?

    public init(profile: String, flow: AuthFlowChoice? = nil) {
        self.profile = profile
        self.flow = flow
    }

    init(_ profile: ResolvedProfile) {
        self.init(profile: profile.name, flow: profile.authFlow)
    }
}

extension ProfileSession {
    /// This profile and its flow: what every failure of its session that requires signing in names.
    var signInNeed: SignInNeed { SignInNeed(profile) }
}
