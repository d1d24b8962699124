import AuthCrypto
import FoundationEssentials
import HTTPTransport
import NetworkHosts
import TokenVerification

/// The browser sign-in's client side for one app client: the authorization request, the code exchange, the
/// refresh-token grant, revocation, userinfo and the logout URL, against Cognito's Hosted UI or any OpenID provider.
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
    public init(configuration: OAuthClientConfiguration, transport: any HTTPTransport, verifier: TokenVerifier) throws(OAuthError) {
        try self.init(configuration: configuration, transport: transport, verifier: verifier,
                      now: { Date().timeIntervalSince1970 }, jitter: { Double.random(in: 0...1) })
    }

    /// With deterministic hooks, for tests: the clock and the back-off jitter.
    init(
        configuration: OAuthClientConfiguration, transport: any HTTPTransport, verifier: TokenVerifier,
        now: @escaping @Sendable () -> Double, jitter: @escaping @Sendable () -> Double
    ) throws(OAuthError) {
        self.configuration = try configuration.validated()
        sender = RetryingSender(transport: transport, deadline: configuration.operationDeadline,
                                    retryPolicy: configuration.retryPolicy, jitter: jitter)
        self.verifier = verifier
        self.now = now
    }

    /// A new sign-in: fresh PKCE verifier, `state` and `nonce`.
    /// - Parameter identityProvider: Cognito's `identity_provider` (`Google`, ...) to skip the Hosted UI page;
    ///   nil shows it.
    public func authorizationRequest(identityProvider: String? = nil) -> OAuthAuthorizationRequest {
        OAuthAuthorizationRequest(authorizationEndpoint: configuration.endpoints.authorization, clientId: configuration.clientId,
                                  redirectURI: configuration.redirectURI, scopes: configuration.scopes,
                                  identityProvider: identityProvider)
    }

    /// POSTs a form to one of the endpoints with the client's authentication: HTTP Basic for a client with a
    /// secret (client id and secret form-encoded first, RFC 6749 section 2.3.1), `client_id` in the form otherwise.
    func postForm(
        _ operation: OAuthOperation, to url: String, _ form: [(name: String, value: String)], secrets: [String]
    ) async throws(OAuthError) -> HTTPResponse {
        var form = form
        var headers = [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
                       HTTPHeader(name: "Accept", value: "application/json")]
        var secrets = secrets
        if let secret = configuration.clientSecret {
            let credentials = FormURLEncoding.percentEncoded(configuration.clientId) + ":" + FormURLEncoding.percentEncoded(secret.utf8String)
            headers.append(HTTPHeader(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString()))
            secrets.append(secret.utf8String)
        } else {
            form.append(("client_id", configuration.clientId))
        }
        let request = HTTPRequest(method: "POST", url: url, headers: headers, body: Array(FormURLEncoding.encode(form).utf8))
        return try await sender.send(request, operation, secrets: secrets)
    }
}
