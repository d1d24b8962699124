import AuthStore
import TokenVault

/// The `state` of `status --json`: one of a fixed set of words a script can switch on (documented with the schema
/// in docs/status.schema.json); the human text stays beside it as `stateText`.
public enum StatusState: String, CaseIterable, Sendable, Encodable {
    /// A session whose access token is valid now.
    case signedIn
    /// The access token expired; the refresh token is there, and the next `authvault token` refreshes.
    case expiredRefreshable
    /// The last refresh failed for a passing reason (the network); the stored session is kept and retried.
    case refreshFailing
    /// The session ended (refresh token rejected, expired or revoked): only `authvault login` helps.
    case needsLogin
    /// No session stored.
    case signedOut
    /// The vault needs unlocking (a locked keyring, a file vault without its passphrase).
    case vaultLocked
    /// The vault cannot be reached at all (no Secret Service, a damaged file).
    case vaultUnavailable
    /// The profile cannot be used as configured (`status --all` only; a single status is an error instead).
    case misconfigured

    /// The state of a store after bootstrap, with what the record and the profile lock's note add.
    public static func of(_ state: AuthState, accessExpired: Bool, refreshFailed: Bool, refreshExpired: Bool)
        -> StatusState
    {
        switch state {
        case .signedIn, .refreshing:
            if refreshFailed { return .refreshFailing }
            if accessExpired { return refreshExpired ? .needsLogin : .expiredRefreshable }
            return .signedIn
        case .vaultUnavailable(let error):
            return error.needsUnlocking ? .vaultLocked : .vaultUnavailable
        case .needsSignIn:
            return .needsLogin
        default:
            return .signedOut
        }
    }
}
