import AuthCrypto
import NetworkHosts

/// Which app client the OAuth client speaks for, at which endpoints, and how patiently. A plain value: the caller
/// reads it from wherever it keeps settings.
public struct OAuthClientConfiguration: Sendable {
    public var endpoints: OAuthEndpoints
    public var clientId: String
    /// For app clients with a secret: sent with HTTP Basic (RFC 6749 section 2.3.1).
    public var clientSecret: SecretBytes?
    /// The callback URL exactly as registered with the app client (Cognito compares it as a string); nil for a
    /// client that never sends a browser back here (the device grant, and refreshing its session).
    public var redirectURI: String?
    /// Must include `openid`: the ID token (and its nonce) is what says who signed in.
    public var scopes: [String]
    /// The overall deadline of one call, retries and back-off included.
    public var operationDeadline: Duration
    public var retryPolicy: RetryPolicy

    public init(
        endpoints: OAuthEndpoints,
        clientId: String,
        clientSecret: SecretBytes? = nil,
        redirectURI: String?,
        scopes: [String] = ["openid", "email", "profile"],
        operationDeadline: Duration = .seconds(20),
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.endpoints = endpoints
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.operationDeadline = operationDeadline
        self.retryPolicy = retryPolicy
    }

    func validated() throws(OAuthError) -> OAuthClientConfiguration {
        try endpoints.checkURLs()
        guard !clientId.isEmpty else { throw .invalidConfiguration("the app client id is empty") }
        if let redirectURI {
            guard let redirect = OAuthURL(redirectURI), redirect.query == nil, !redirectURI.contains("#") else {
                throw .invalidConfiguration("the redirect URI must be an absolute URL without query or fragment")
            }
            guard redirect.scheme != "http" || ServiceURL.isPermitted(redirectURI) else {
                throw .invalidConfiguration("an http:// redirect URI must be on a loopback address")
            }
        }
        guard scopes.contains("openid") else { throw .invalidConfiguration("the scopes must include openid") }
        guard operationDeadline > .zero else { throw .invalidConfiguration("the operation deadline must be positive") }
        return self
    }
}
