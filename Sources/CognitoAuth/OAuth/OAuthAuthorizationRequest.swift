import AuthCrypto
import NetworkHosts

/// One browser sign-in in progress: the authorize URL to open, and what the callback and the code exchange are
/// checked against. PKCE is always S256 (never `plain`); `state` and `nonce` are fresh and unguessable for each
/// request. Keep it only for this sign-in: it is the one thing that can redeem its code.
public struct OAuthAuthorizationRequest: Sendable, CustomStringConvertible {
    /// The authorize URL, for the browser. It carries no secret (the PKCE challenge is a hash of the verifier).
    public let url: String
    /// The redirect URI exactly as registered, sent again with the code exchange.
    public let redirectURI: String
    /// The `identity_provider` sent (nil: the Hosted UI shows its own page).
    public let identityProvider: String?
    /// The one-time `state`: it travels in the authorize URL and comes back on the callback, which a loopback
    /// listener checks it against. Not a secret once the URL is shown, but unguessable.
    public let state: String
    let nonce: String
    let pkce: PKCE
    private let authorizationEndpoint: String
    private let clientId: String
    private let scopes: [String]

    /// - Parameters:
    ///   - identityProvider: Cognito's `identity_provider` (`Google`, a SAML or OIDC provider's name) to go
    ///     straight to that provider; nil shows the Hosted UI page.
    init(
        authorizationEndpoint: String, clientId: String, redirectURI: String, scopes: [String],
        identityProvider: String?,
        pkce: PKCE = PKCE(), state: String = Self.randomToken(), nonce: String = Self.randomToken()
    ) {
        var parameters: [(name: String, value: String)] = [
            ("response_type", "code"),
            ("client_id", clientId),
            ("redirect_uri", redirectURI),
            ("scope", scopes.joined(separator: " ")),
            ("state", state),
            ("nonce", nonce),
            ("code_challenge", pkce.challenge),
            ("code_challenge_method", PKCE.method),
        ]
        if let identityProvider { parameters.append(("identity_provider", identityProvider)) }
        let separator = authorizationEndpoint.contains("?") ? "&" : "?"
        url = authorizationEndpoint + separator + FormURLEncoding.encode(parameters)
        self.redirectURI = redirectURI
        self.identityProvider = identityProvider
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.authorizationEndpoint = authorizationEndpoint
        self.clientId = clientId
        self.scopes = scopes
    }

    /// The same sign-in (the same `state`, `nonce` and PKCE verifier) sent back to another registered redirect
    /// URI: the one whose port a loopback listener could bind, known only once it listens with this `state`.
    public func redirected(to redirectURI: String) -> OAuthAuthorizationRequest {
        OAuthAuthorizationRequest(
            authorizationEndpoint: authorizationEndpoint, clientId: clientId, redirectURI: redirectURI,
            scopes: scopes, identityProvider: identityProvider, pkce: pkce, state: state, nonce: nonce)
    }

    public var description: String {
        let target = OAuthURL(url).map { "\($0.scheme)://\($0.authority)\($0.path)" } ?? "?"
        return
            "OAuthAuthorizationRequest(\(target), redirect \(redirectURI), identity provider \(identityProvider ?? "none"), <state, nonce and verifier redacted>)"
    }

    /// 32 random bytes, base64url: 256 bits that no one can guess.
    static func randomToken() -> String {
        Base64URL.encode(SecureRandom.bytes(count: 32))
    }
}
