import AuthCrypto
import FoundationEssentials
import HTTPTransport
import NetworkHosts

extension OAuthEndpoints {
    static let discoveryPath = "/.well-known/openid-configuration"

    /// Fetches an OpenID provider's discovery document (OpenID Connect Discovery 1.0 section 4) through the
    /// transport and reads its endpoints.
    /// - Parameter url: the issuer, or the document's URL (`{issuer}/.well-known/openid-configuration`). The
    ///   document's `issuer` must be exactly the issuer that URL names (section 4.3), so a document cannot speak
    ///   for another issuer.
    public static func discover(
        _ url: String,
        transport: any HTTPTransport,
        deadline: Duration = .seconds(20),
        retryPolicy: RetryPolicy = RetryPolicy()
    ) async throws(OAuthError) -> OAuthEndpoints {
        var issuer = Substring(url)
        if issuer.hasSuffix(discoveryPath) { issuer = issuer.dropLast(discoveryPath.count) }
        while issuer.hasSuffix("/") { issuer = issuer.dropLast() }
        let documentURL = String(issuer) + discoveryPath
        guard ServiceURL.isPermitted(documentURL) else {
            throw .invalidConfiguration("the discovery URL: \(ServiceURL.rule)")
        }
        let sender = RetryingSender(
            transport: transport, deadline: deadline, retryPolicy: retryPolicy,
            jitter: { Double.random(in: 0...1) })
        let request = HTTPRequest(
            method: "GET", url: documentURL, headers: [HTTPHeader(name: "Accept", value: "application/json")])
        let response = try await sender.send(request, .discovery)
        let endpoints = try OAuthEndpoints(discoveryDocument: response.body)
        guard endpoints.issuer == String(issuer) else {
            throw .invalidConfiguration(
                "the discovery document at \(documentURL) names another issuer (\(ServerText.escaped(endpoints.issuer ?? "none")))"
            )
        }
        return endpoints
    }

    /// Reads a discovery document. A Cognito user pool's (its issuer is `https://cognito-idp.`...) gets Cognito's
    /// logout parameters: its `end_session_endpoint` is the Hosted UI's `/logout`.
    public init(discoveryDocument: some DataProtocol) throws(OAuthError) {
        let document: DiscoveryDocument
        do {
            document = try JSONDecoder().decode(DiscoveryDocument.self, from: Data(discoveryDocument))
        } catch {
            throw .invalidResponse(
                operation: OAuthOperation.discovery.rawValue,
                reason: "not a discovery document with issuer, authorization_endpoint, token_endpoint and jwks_uri")
        }
        if let methods = document.codeChallengeMethods, !methods.contains(PKCE.method) {
            throw .invalidConfiguration("the provider does not offer PKCE with S256 (code_challenge_methods_supported)")
        }
        self.init(
            authorization: document.authorizationEndpoint, token: document.tokenEndpoint,
            userInfo: document.userinfoEndpoint,
            revocation: document.revocationEndpoint, logout: document.endSessionEndpoint,
            logoutStyle: document.issuer.hasPrefix("https://cognito-idp.") ? .cognito : .openIDConnect,
            issuer: document.issuer, jwksURL: document.jwksURI,
            deviceAuthorization: document.deviceAuthorizationEndpoint)
        try checkURLs()
    }
}

/// The fields of OpenID Provider Metadata (Discovery section 3) the client uses; the first four are required.
private struct DiscoveryDocument: Decodable {
    let issuer: String
    let authorizationEndpoint: String
    let tokenEndpoint: String
    let jwksURI: String
    let userinfoEndpoint: String?
    let revocationEndpoint: String?
    let endSessionEndpoint: String?
    let codeChallengeMethods: [String]?
    let deviceAuthorizationEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case codeChallengeMethods = "code_challenge_methods_supported"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
    }
}
