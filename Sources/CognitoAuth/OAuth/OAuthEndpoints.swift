import NetworkHosts

/// Where an authorization server takes the browser and the client's calls: Cognito's Hosted UI (managed login)
/// by its domain, any OpenID provider by its discovery document, or each URL set by hand.
public struct OAuthEndpoints: Sendable, Equatable {
    /// How the logout URL is built: the endpoint's parameters differ.
    public enum LogoutStyle: Sendable, Equatable {
        /// Cognito's `/logout?client_id=...&logout_uri=...`; `logout_uri` must be one of the app client's sign-out URLs.
        case cognito
        /// OpenID Connect RP-Initiated Logout: `client_id`, `post_logout_redirect_uri` (never `id_token_hint`).
        case openIDConnect
    }

    public var authorization: String
    public var token: String
    public var userInfo: String?
    public var revocation: String?
    public var logout: String?
    public var logoutStyle: LogoutStyle
    /// From a discovery document: the `iss` its tokens carry, and where its signing keys are.
    public var issuer: String?
    public var jwksURL: String?
    /// RFC 8628's device authorization endpoint, where a sign-in without a browser here begins; nil where the
    /// provider has none (Cognito).
    public var deviceAuthorization: String?

    public init(
        authorization: String,
        token: String,
        userInfo: String? = nil,
        revocation: String? = nil,
        logout: String? = nil,
        logoutStyle: LogoutStyle = .openIDConnect,
        issuer: String? = nil,
        jwksURL: String? = nil,
        deviceAuthorization: String? = nil
    ) {
        self.authorization = authorization
        self.token = token
        self.userInfo = userInfo
        self.revocation = revocation
        self.logout = logout
        self.logoutStyle = logoutStyle
        self.issuer = issuer
        self.jwksURL = jwksURL
        self.deviceAuthorization = deviceAuthorization
    }

    /// Cognito's paths under a Hosted UI domain (`https://{prefix}.auth.{region}.amazoncognito.com` or a custom
    /// domain). Its tokens' issuer and keys are the user pool's, which the domain does not tell.
    public init(hostedUIBaseURL: String) throws(OAuthError) {
        var base = Substring(hostedUIBaseURL)
        while base.hasSuffix("/") { base = base.dropLast() }
        guard !base.contains("?"), !base.contains("#") else {
            throw .invalidConfiguration("the Hosted UI base URL must not have a query or fragment")
        }
        self.init(
            authorization: "\(base)/oauth2/authorize", token: "\(base)/oauth2/token",
            userInfo: "\(base)/oauth2/userInfo",
            revocation: "\(base)/oauth2/revoke", logout: "\(base)/logout", logoutStyle: .cognito)
        try checkURLs()
    }

    /// Every URL is https, or http on a loopback address (a local test server): codes, tokens and client secrets go
    /// to these.
    func checkURLs() throws(OAuthError) {
        let named: [(String, String?)] = [
            ("authorization", authorization), ("token", token), ("userinfo", userInfo),
            ("revocation", revocation), ("logout", logout), ("JWKS", jwksURL),
            ("device authorization", deviceAuthorization),
        ]
        for case (let name, let url?) in named {
            guard ServiceURL.isPermitted(url) else {
                throw .invalidConfiguration("the \(name) endpoint: \(ServiceURL.rule)")
            }
            // Printed for the user to open (the sign-in and logout pages): a control character in one would reach
            // the terminal.
            guard ServerText.isPlain(url), !url.contains(" ") else {
                throw .invalidConfiguration(
                    "the \(name) endpoint holds a space or a control character, which a URL carries percent-encoded")
            }
        }
    }
}
