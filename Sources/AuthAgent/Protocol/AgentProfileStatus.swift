import AuthStore

/// One profile in a status reply. No token.
public struct AgentProfileStatus: Sendable, Equatable {
    public let profile: String
    /// A stable machine name: signedIn, refreshing, signedOut, needsSignIn, vaultUnavailable, ...
    public let state: String
    /// The state in words.
    public let detail: String
    public let user: String?
    public let accessTokenExpiresAt: Double?
    public let idTokenExpiresAt: Double?

    public init(
        profile: String, state: String, detail: String, user: String?, accessTokenExpiresAt: Double?,
        idTokenExpiresAt: Double?
    ) {
        self.profile = profile
        self.state = state
        self.detail = detail
        self.user = user
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.idTokenExpiresAt = idTokenExpiresAt
    }
}

extension AgentProfileStatus {
    init(profile: String, state: AuthState) {
        let session: SessionSummary?
        switch state {
        case .signedIn(let summary), .refreshing(let summary): session = summary
        default: session = nil
        }
        self.init(
            profile: profile, state: Self.machineName(of: state), detail: state.description, user: session?.user,
            accessTokenExpiresAt: session?.accessTokenExpiresAt, idTokenExpiresAt: session?.idTokenExpiresAt)
    }

    private static func machineName(of state: AuthState) -> String {
        switch state {
        case .bootstrapping: return "bootstrapping"
        case .signedOut: return "signedOut"
        case .signingIn: return "signingIn"
        case .awaitingChallenge: return "awaitingChallenge"
        case .signedIn: return "signedIn"
        case .refreshing: return "refreshing"
        case .needsSignIn: return "needsSignIn"
        case .vaultUnavailable: return "vaultUnavailable"
        case .signingOut: return "signingOut"
        }
    }
}
