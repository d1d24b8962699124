import AuthStore

/// A session that still answers, so a `login` has nothing new to do: whose it is and until when.
public struct ExistingSignIn: Sendable, Equatable {
    /// What bounds `until`: the refresh token, whose validity the profile knows, or else the access token.
    public enum Bound: Sendable, Equatable {
        case refreshToken
        case accessToken
    }

    public let username: String
    public let email: String?
    /// Unix seconds, by this machine's clock.
    public let until: Double
    public let bound: Bound
}

/// What a `login` has to do.
public enum LoginNeed: Sendable, Equatable {
    /// No usable session (none, ended, refresh token expired or rejected, a sign-in left half-way), or another user
    /// asked for: sign in.
    case signIn
    /// A usable session of the user asked for (or of anyone, when none was named): nothing to do.
    case alreadySignedIn(ExistingSignIn)
}

extension ProfileSession {
    /// Whether a `login` of `user` (nil: whoever) has anything to do, from what the vault holds: no network, no
    /// prompt. A user profile only: a machine profile's `login` fetches its token.
    /// - Parameter now: this machine's clock (Unix seconds).
    public func loginNeed(forUser user: String?, now: Double) async -> LoginNeed {
        guard profile.grant == .user else { return .signIn }
        switch await store.bootstrap() {
        case .signedIn, .refreshing: break
        default: return .signIn
        }
        guard let record = await store.recordFacts(), record.hasSession, let identity = record.identity else {
            return .signIn
        }
        if let user, user != identity.username, identity.email?.lowercased() != user.lowercased() { return .signIn }
        let refreshExpiry =
            record.canRefresh
            ? profile.refreshTokenExpiry(signedInAt: record.signedInAt, lastRefreshAt: record.lastRefreshAt) : nil
        let accessExpiry = record.accessTokenExpiresAt.map { store.clock.localTime(ofProviderTime: $0) } ?? 0
        // A refresh token of unknown validity counts as usable: the next token request finds out.
        let usable = refreshExpiry.map { $0 > now } ?? (record.canRefresh || accessExpiry > now)
        guard usable else { return .signIn }
        return .alreadySignedIn(
            ExistingSignIn(
                username: identity.username, email: identity.email, until: refreshExpiry ?? accessExpiry,
                bound: refreshExpiry != nil ? .refreshToken : .accessToken))
    }
}
