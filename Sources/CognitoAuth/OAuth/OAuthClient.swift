import AuthCrypto
import FoundationEssentials
import HTTPTransport
import TokenVerification

/// The browser sign-in's client side for one app client: the authorization request, the code exchange, the
/// refresh-token grant, the device grant (RFC 8628), revocation, userinfo and the logout URL, against Cognito's Hosted UI or any OpenID provider.
/// Every call goes through the transport as `application/x-www-form-urlencoded`; every token that arrives is
/// verified before it is returned. A value with no mutable state: share it freely.
public struct OAuthClient: Sendable {
    public let configuration: OAuthClientConfiguration
    let sender: RetryingSender
    let verifier: TokenVerifier
    /// Unix seconds: the expiry of an opaque access token.
    let now: @Sendable () -> Double

    /// - Parameter verifier: set up for the issuer of the tokens (a Cognito user pool's, even behind a Hosted UI
    ///   domain) and this app client.
    /// - Parameter now: the provider's time (`ServerClock.now`): an opaque token's `expires_in` counts from it.
    public init(
        configuration: OAuthClientConfiguration, transport: any HTTPTransport, verifier: TokenVerifier,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws(OAuthError) {
        try self.init(
            configuration: configuration, transport: transport, verifier: verifier,
            now: now, jitter: { Double.random(in: 0...1) })
    }

    /// With deterministic hooks, for tests: the clock and the back-off jitter.
    init(
        configuration: OAuthClientConfiguration, transport: any HTTPTransport, verifier: TokenVerifier,
        now: @escaping @Sendable () -> Double, jitter: @escaping @Sendable () -> Double
    ) throws(OAuthError) {
        self.configuration = try configuration.validated()
        sender = RetryingSender(
            transport: transport, deadline: configuration.operationDeadline,
            retryPolicy: configuration.retryPolicy, jitter: jitter)
        self.verifier = verifier
        self.now = now
    }

    /// A new sign-in: fresh PKCE verifier, `state` and `nonce`.
    /// - Parameter identityProvider: Cognito's `identity_provider` (`Google`, ...) to skip the Hosted UI page;
    ///   nil shows it.
    public func authorizationRequest(identityProvider: String? = nil) throws(OAuthError) -> OAuthAuthorizationRequest {
        guard let redirectURI = configuration.redirectURI else {
            throw .invalidConfiguration(
                "no redirect URI (a loopback callback registered on the app client) to sign in through a browser")
        }
        return OAuthAuthorizationRequest(
            authorizationEndpoint: configuration.endpoints.authorization, clientId: configuration.clientId,
            redirectURI: redirectURI, scopes: configuration.scopes, identityProvider: identityProvider)
    }

    /// POSTs a form to one of the endpoints with the client's authentication (`OAuthClientAuthentication`).
    func postForm(
        _ operation: OAuthOperation, to url: String, _ form: [(name: String, value: String)], secrets: [String]
    ) async throws(OAuthError) -> HTTPResponse {
        let authentication = OAuthClientAuthentication(
            clientId: configuration.clientId, clientSecret: configuration.clientSecret)
        return try await sender.send(authentication.formRequest(to: url, form, secrets: secrets), operation)
    }
}
