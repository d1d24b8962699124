import AuthCrypto

/// A refresh token whose revocation failed for a passing reason (the network, a timeout, the server's trouble): kept,
/// encrypted with the record, only to be revoked later. It is its own type, never a `refreshToken` of the record, so
/// no sign-in or refresh can take it; it holds nothing else of the session (no access or ID token, no user).
public struct PendingRevocation: Sendable, Equatable, CustomStringConvertible {
    public var refreshToken: SecretBytes
    /// How the session was obtained: where it is revoked (the user-pool API, or the provider's revocation endpoint).
    public var origin: SessionOrigin
    /// Unix seconds, this machine's clock: when the session began and was last refreshed, which time the refresh
    /// token's validity.
    public var signedInAt: Double?
    public var lastRefreshAt: Double?
    /// When the last try failed, and why (never a token).
    public var lastTriedAt: Double
    public var lastFailure: String

    public init(
        refreshToken: SecretBytes, origin: SessionOrigin, signedInAt: Double?, lastRefreshAt: Double?,
        lastTriedAt: Double, lastFailure: String
    ) {
        self.refreshToken = refreshToken
        self.origin = origin
        self.signedInAt = signedInAt
        self.lastRefreshAt = lastRefreshAt
        self.lastTriedAt = lastTriedAt
        self.lastFailure = lastFailure
    }

    public var description: String { "PendingRevocation(\(origin.rawValue), token redacted)" }
}
