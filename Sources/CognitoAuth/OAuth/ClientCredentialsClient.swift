import AuthCrypto
import FoundationEssentials
import HTTPTransport
import NetworkHosts
import TokenVerification

/// Machine sign-in: an app client with a secret asks the token endpoint for an access token of its own with the
/// client-credentials grant (RFC 6749 section 4.4; Cognito's machine-to-machine clients), authenticated with HTTP
/// Basic. The answer has no refresh token: a new token is asked for when the old one nears expiry. A value with no
/// mutable state: share it freely.
public struct ClientCredentialsClient: Sendable {
    public struct Configuration: Sendable {
        public var tokenEndpoint: String
        public var clientId: String
        public var clientSecret: SecretBytes
        /// The resource servers' scopes to ask for (Cognito: `identifier/scope`); empty asks for the client's defaults.
        public var scopes: [String]
        /// The overall deadline of one call, retries and back-off included.
        public var operationDeadline: Duration
        public var retryPolicy: RetryPolicy

        public init(
            tokenEndpoint: String, clientId: String, clientSecret: SecretBytes, scopes: [String],
            operationDeadline: Duration = .seconds(20), retryPolicy: RetryPolicy = RetryPolicy()
        ) {
            self.tokenEndpoint = tokenEndpoint
            self.clientId = clientId
            self.clientSecret = clientSecret
            self.scopes = scopes
            self.operationDeadline = operationDeadline
            self.retryPolicy = retryPolicy
        }
    }

    public let configuration: Configuration
    let sender: RetryingSender
    let verifier: TokenVerifier
    let now: @Sendable () -> Double

    /// - Parameter verifier: set up for the issuer of the access tokens and this app client; a JWT access token
    ///   must pass it.
    /// - Parameter now: the provider's time (`ServerClock.now`): an opaque token's `expires_in` counts from it.
    public init(
        configuration: Configuration, transport: any HTTPTransport, verifier: TokenVerifier,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) throws(OAuthError) {
        try self.init(
            configuration: configuration, transport: transport, verifier: verifier,
            now: now, jitter: { Double.random(in: 0...1) })
    }

    /// With deterministic hooks, for tests: the clock and the back-off jitter.
    init(
        configuration: Configuration, transport: any HTTPTransport, verifier: TokenVerifier,
        now: @escaping @Sendable () -> Double, jitter: @escaping @Sendable () -> Double
    ) throws(OAuthError) {
        // The secret goes there: https, or plain http to a loopback address only.
        guard ServiceURL.isPermitted(configuration.tokenEndpoint) else {
            throw .invalidConfiguration("the token endpoint: \(ServiceURL.rule)")
        }
        guard !configuration.clientId.isEmpty else { throw .invalidConfiguration("the app client id is empty") }
        guard configuration.clientSecret.count > 0 else {
            throw .invalidConfiguration("the client-credentials grant needs the app client's secret")
        }
        guard configuration.operationDeadline > .zero else {
            throw .invalidConfiguration("the operation deadline must be positive")
        }
        self.configuration = configuration
        sender = RetryingSender(
            transport: transport, deadline: configuration.operationDeadline,
            retryPolicy: configuration.retryPolicy, jitter: jitter)
        self.verifier = verifier
        self.now = now
    }

    /// A new access token for the app client. `invalid_client` means the id or secret was not accepted,
    /// `invalid_scope` a scope the client may not have (the error's description then names the scopes asked for),
    /// `unauthorized_client` a client not allowed this grant.
    public func token() async throws(OAuthError) -> MachineToken {
        var form: [(name: String, value: String)] = [("grant_type", "client_credentials")]
        if !configuration.scopes.isEmpty { form.append(("scope", configuration.scopes.joined(separator: " "))) }
        let authentication = OAuthClientAuthentication(
            clientId: configuration.clientId, clientSecret: configuration.clientSecret)
        let request = authentication.formRequest(to: configuration.tokenEndpoint, form, secrets: [])
        let sent = now()
        let response: HTTPResponse
        do {
            response = try await sender.send(request, .clientCredentials)
        } catch {
            throw namingScopes(error)
        }
        let answer = try OAuthTokenResponse.decoded(from: response.body, .clientCredentials)
        var claims: Claims?
        if answer.accessToken.split(separator: ".", omittingEmptySubsequences: false).count == 3 {
            do {
                claims = try await verifier.verifyAccessToken(answer.accessToken).claims
            } catch {
                throw .tokenRejected(error)
            }
        }
        guard let expiresAt = claims?.expiresAt ?? answer.expiresIn.map({ sent + $0 }) else {
            throw .invalidResponse(
                operation: OAuthOperation.clientCredentials.rawValue,
                reason: "the answer says neither exp nor expires_in")
        }
        let granted = answer.scope.map { $0.split(separator: " ").map(String.init) } ?? configuration.scopes
        return MachineToken(
            accessToken: SecretBytes(utf8: answer.accessToken), expiresAt: expiresAt,
            issuedAt: claims?.issuedAt ?? sent, clientId: configuration.clientId, scopes: granted)
    }

    /// `invalid_scope` with the scopes that were asked for: the server's description may not name them.
    private func namingScopes(_ error: OAuthError) -> OAuthError {
        guard case .refused(.invalidScope, let description, let status, let operation) = error else { return error }
        let asked =
            configuration.scopes.isEmpty ? "none (the client's defaults)" : configuration.scopes.joined(separator: " ")
        return .refused(
            .invalidScope, description: "asked for: \(asked)" + (description.isEmpty ? "" : "; \(description)"),
            status: status, operation: operation)
    }
}
