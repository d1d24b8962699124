import TokenVerification

/// Tokens from the Hosted UI or another authorization server, verified like the user-pool flow's, with what only
/// the browser flow tells: the federated identities of a user who signed in through Google or another provider.
public struct OAuthTokens: Sendable, CustomStringConvertible {
    public let tokens: CognitoTokens
    /// From the ID token's `identities` claim; empty for a user of the pool itself.
    public let identities: [FederatedIdentity]
    /// The server rotated the refresh token: `tokens.refreshToken` is new and the old one is dead, so persist these
    /// tokens before doing anything else with them.
    public let refreshTokenRotated: Bool

    public init(tokens: CognitoTokens, identities: [FederatedIdentity], refreshTokenRotated: Bool) {
        self.tokens = tokens
        self.identities = identities
        self.refreshTokenRotated = refreshTokenRotated
    }

    public var description: String {
        let providers = identities.map { "\($0.providerName) \($0.userId)" }.joined(separator: ", ")
        return
            "OAuthTokens(\(tokens)\(providers.isEmpty ? "" : ", via \(providers)")\(refreshTokenRotated ? ", refresh token rotated" : ""))"
    }
}
