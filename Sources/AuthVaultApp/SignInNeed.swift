/// Whose session a use needed and how that profile signs in: what the remedy of a sign-in-required outcome names, so
/// the command line words the exact `login` without reading the configuration again.
public struct SignInNeed: Sendable, Equatable {
    public let profile: String
    /// The route a plain `login` typed in a terminal here takes (`SignInRoute.choose`, as `login` and a helper's own
    /// sign-in choose it); nil where the application does not know the profile (an agent's answer about a profile
    /// this machine does not configure), and then a plain login is named.
    public let route: SignInRoute?
    /// The way `login` is to be asked for by name because a plain one would refuse here (a browser sign-in with no
    /// browser to open and no device grant: the address its browser ends on pasted back); nil: a plain login does.
    public let mode: SignInRoute.Asked.Mode?
    /// The profile's user-pool flow where the route is the user-pool API (or is not known): the remedy names one
    /// that is no password (a code Cognito sends, a choice, custom challenges).
    public let flow: AuthFlowChoice?

    /// A need for `profile` alone, its route not known.
    public init(profile: String, flow: AuthFlowChoice? = nil) {
        self.init(profile: profile, route: nil, mode: nil, flow: flow)
    }

    init(profile: String, route: SignInRoute?, mode: SignInRoute.Asked.Mode?, flow: AuthFlowChoice?) {
        self.profile = profile
        self.route = route
        self.mode = mode
        self.flow = flow
    }

    /// The need of `profile` at `host`: the route `login` chooses for a person at a terminal there, else the first
    /// way asked for by name that `SignInRoute.choose` accepts.
    public init(_ profile: ResolvedProfile, host: BrowserHost) {
        let chosen = [nil, .paste].lazy.compactMap { (mode: SignInRoute.Asked.Mode?) in
            (try? SignInRoute.choose(
                .only(mode), profile: profile, interactive: true, promptsForbidden: false, host: host))
                .map { (route: $0, mode: mode) }
        }.first
        self.init(
            profile: profile.name, route: chosen?.route, mode: chosen?.mode,
            flow: chosen == nil || chosen?.route == .userPool ? profile.authFlow : nil)
    }
}

extension ProfileSession {
    /// This profile and how it signs in here: what every failure of its session that requires signing in names.
    var signInNeed: SignInNeed { SignInNeed(profile, host: browserHost.host) }
}
