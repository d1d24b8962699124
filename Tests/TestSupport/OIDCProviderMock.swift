import Foundation

/// oidc-provider-mock (PyPI; Authlib and Flask) as a second OpenID provider, independent of django-oauth-toolkit:
/// Tests/TestSupport/Scripts/oidc_mock/server.py on a free loopback port. It takes any client id with any secret
/// (HTTP Basic), asks the browser for the `sub` to sign in as (Scripts/oidc_mock/browser.py answers), issues random
/// access and refresh tokens and ES256 ID tokens without a `kid` (its one key is set to P-256 there), refreshes without
/// rotating the refresh token, and names no revocation endpoint. Each test starts its own.
public final class OIDCProviderMock: Sendable {
    public let server: ScriptServer
    /// The `iss` of its ID tokens, and where its discovery document is.
    public var issuer: String { server.baseURL }
    public var discoveryURL: String { issuer + "/.well-known/openid-configuration" }

    private init(server: ScriptServer) {
        self.server = server
    }

    public static func start() async throws -> OIDCProviderMock {
        OIDCProviderMock(server: try await ScriptServer.start(script: "oidc_mock/server.py"))
    }
}
