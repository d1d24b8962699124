import AuthCrypto
import Foundation
import HTTPTransport
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// The endpoints from a Hosted UI domain (Cognito's paths, REFERENCE section 2), from discovery documents, and
/// the logout URLs built on them.
@Suite struct OAuthEndpointsTests {
    @Test func hostedUIDomainGetsCognitosPaths() throws {
        for base in [
            "https://example.auth.eu-west-1.amazoncognito.com", "https://example.auth.eu-west-1.amazoncognito.com/",
        ] {
            let endpoints = try OAuthEndpoints(hostedUIBaseURL: base)
            #expect(endpoints.authorization == "https://example.auth.eu-west-1.amazoncognito.com/oauth2/authorize")
            #expect(endpoints.token == "https://example.auth.eu-west-1.amazoncognito.com/oauth2/token")
            #expect(endpoints.userInfo == "https://example.auth.eu-west-1.amazoncognito.com/oauth2/userInfo")
            #expect(endpoints.revocation == "https://example.auth.eu-west-1.amazoncognito.com/oauth2/revoke")
            #expect(endpoints.logout == "https://example.auth.eu-west-1.amazoncognito.com/logout")
            #expect(endpoints.logoutStyle == .cognito)
        }
    }

    @Test func plainHTTPOnlyOnLoopback() throws {
        #expect(throws: OAuthError.self) { try OAuthEndpoints(hostedUIBaseURL: "http://auth.example.com") }
        #expect(throws: OAuthError.self) { try OAuthEndpoints(hostedUIBaseURL: "http://127.0.0.1.evil.example") }
        // Four labels after "127." passed the old dotted-quad shape check; only an address is loopback.
        #expect(throws: OAuthError.self) { try OAuthEndpoints(hostedUIBaseURL: "http://127.evil.example.com") }
        #expect(throws: OAuthError.self) { try OAuthEndpoints(hostedUIBaseURL: "http://localhost.evil.com") }
        #expect(throws: OAuthError.self) { try OAuthEndpoints(hostedUIBaseURL: "ftp://auth.example.com") }
        #expect(throws: OAuthError.self) { try OAuthEndpoints(hostedUIBaseURL: "https://user@auth.example.com") }
        for base in ["http://127.0.0.1:8000", "http://[::1]:8000", "http://localhost:8000", "https://auth.example.com"]
        {
            #expect(try OAuthEndpoints(hostedUIBaseURL: base).token == base + "/oauth2/token")
        }
    }

    /// The shape of the document a Cognito user pool publishes at `{issuer}/.well-known/openid-configuration`.
    static let cognitoDocument = """
        {"authorization_endpoint":"https://example.auth.us-east-1.amazoncognito.com/oauth2/authorize",
         "end_session_endpoint":"https://example.auth.us-east-1.amazoncognito.com/logout",
         "id_token_signing_alg_values_supported":["RS256"],
         "issuer":"https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example",
         "jwks_uri":"https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example/.well-known/jwks.json",
         "response_types_supported":["code","token"],
         "revocation_endpoint":"https://example.auth.us-east-1.amazoncognito.com/oauth2/revoke",
         "scopes_supported":["openid","email","phone","profile"],
         "subject_types_supported":["public"],
         "token_endpoint":"https://example.auth.us-east-1.amazoncognito.com/oauth2/token",
         "token_endpoint_auth_methods_supported":["client_secret_basic","client_secret_post"],
         "userinfo_endpoint":"https://example.auth.us-east-1.amazoncognito.com/oauth2/userInfo"}
        """

    @Test func cognitoDiscoveryDocument() throws {
        let endpoints = try OAuthEndpoints(discoveryDocument: Data(Self.cognitoDocument.utf8))
        #expect(
            endpoints
                == OAuthEndpoints(
                    authorization: "https://example.auth.us-east-1.amazoncognito.com/oauth2/authorize",
                    token: "https://example.auth.us-east-1.amazoncognito.com/oauth2/token",
                    userInfo: "https://example.auth.us-east-1.amazoncognito.com/oauth2/userInfo",
                    revocation: "https://example.auth.us-east-1.amazoncognito.com/oauth2/revoke",
                    logout: "https://example.auth.us-east-1.amazoncognito.com/logout", logoutStyle: .cognito,
                    issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example",
                    jwksURL: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example/.well-known/jwks.json"))
    }

    @Test func genericDiscoveryDocumentWithOnlyTheRequiredFields() throws {
        let document =
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/keys","code_challenge_methods_supported":["plain","S256"]}"#
        let endpoints = try OAuthEndpoints(discoveryDocument: Data(document.utf8))
        #expect(endpoints.logoutStyle == .openIDConnect)
        #expect(endpoints.userInfo == nil && endpoints.revocation == nil && endpoints.logout == nil)
        #expect(endpoints.jwksURL == "https://op.example/keys")
    }

    @Test func unusableDiscoveryDocumentsAreRefused() {
        let documents = [
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","jwks_uri":"https://op.example/keys"}"#,
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/keys","code_challenge_methods_supported":["plain"]}"#,
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","token_endpoint":"http://op.example/token","jwks_uri":"https://op.example/keys"}"#,
            // A URL printed for the user to open must not carry a terminal escape or a line of its own.
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth\u001b]0;pwned\u0007","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/keys"}"#,
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/keys","end_session_endpoint":"https://op.example/out\r\nauthvault: ok"}"#,
            "<html>not found</html>",
        ]
        for document in documents {
            #expect(throws: OAuthError.self) { try OAuthEndpoints(discoveryDocument: Data(document.utf8)) }
        }
    }

    /// A document must name the issuer it was fetched for (OpenID Connect Discovery section 4.3).
    @Test func discoveryChecksTheIssuer() async throws {
        let transport = URLStubTransport { request in
            #expect(
                request.method == "GET"
                    && request.url
                        == "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Other/.well-known/openid-configuration"
            )
            return HTTPResponse(status: 200, headers: [], body: Array(Self.cognitoDocument.utf8))
        }
        await #expect(throws: OAuthError.self) {
            try await OAuthEndpoints.discover(
                "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Other", transport: transport)
        }
        let matching = URLStubTransport { _ in
            HTTPResponse(status: 200, headers: [], body: Array(Self.cognitoDocument.utf8))
        }
        for url in [
            "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example",
            "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example/.well-known/openid-configuration",
        ] {
            let endpoints = try await OAuthEndpoints.discover(url, transport: matching)
            #expect(endpoints.issuer == "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example")
        }
    }

    @Test func discoveryRetriesAServerFailure() async throws {
        let transport = URLStubTransport { request in
            request.attempt == 1
                ? HTTPResponse(status: 503, headers: [], body: Array("<html>busy</html>".utf8))
                : HTTPResponse(status: 200, headers: [], body: Array(Self.cognitoDocument.utf8))
        }
        let endpoints = try await OAuthEndpoints.discover(
            "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example", transport: transport,
            retryPolicy: RetryPolicy(initialBackoff: .milliseconds(5), maximumBackoff: .milliseconds(10)))
        #expect(endpoints.logoutStyle == .cognito)
        #expect(transport.requests.count == 2)
    }

    // MARK: Logout URLs

    static func client(endpoints: OAuthEndpoints) throws -> OAuthClient {
        let transport = URLStubTransport { _ in HTTPResponse(status: 500, headers: [], body: []) }
        let verifier = TokenVerifier(
            issuer: "i", clientId: "client-abc", keys: JWKSCache(url: "https://keys.example", transport: transport))
        return try OAuthClient(
            configuration: OAuthClientConfiguration(
                endpoints: endpoints, clientId: "client-abc",
                redirectURI: "http://127.0.0.1:53682/callback"),
            transport: transport, verifier: verifier)
    }

    @Test func cognitoLogoutURL() throws {
        let client = try Self.client(
            endpoints: try OAuthEndpoints(hostedUIBaseURL: "https://example.auth.us-east-1.amazoncognito.com"))
        let url = try client.logoutURL(postLogoutRedirectURI: "http://localhost:53682/signed-out")
        let components = try #require(URLComponents(string: url))
        #expect(components.path == "/logout")
        #expect(
            components.queryItems == [
                URLQueryItem(name: "client_id", value: "client-abc"),
                URLQueryItem(name: "logout_uri", value: "http://localhost:53682/signed-out"),
            ])
        #expect(throws: OAuthError.self) { try client.logoutURL(postLogoutRedirectURI: nil) }
    }

    @Test func openIDConnectLogoutURL() throws {
        let endpoints = OAuthEndpoints(
            authorization: "https://op.example/auth", token: "https://op.example/token",
            logout: "https://op.example/end-session?tenant=a")
        let client = try Self.client(endpoints: endpoints)
        // The client by its id, never the ID token (id_token_hint): the URL goes on a browser's command line.
        let url = try client.logoutURL(postLogoutRedirectURI: "http://127.0.0.1:53682/signed-out")
        #expect(
            try #require(URLComponents(string: url)).queryItems == [
                URLQueryItem(name: "tenant", value: "a"), URLQueryItem(name: "client_id", value: "client-abc"),
                URLQueryItem(name: "post_logout_redirect_uri", value: "http://127.0.0.1:53682/signed-out"),
            ])
        #expect(
            try client.logoutURL(postLogoutRedirectURI: nil)
                == "https://op.example/end-session?tenant=a&client_id=client-abc")
        let noLogout = try Self.client(
            endpoints: OAuthEndpoints(authorization: "https://op.example/auth", token: "https://op.example/token"))
        #expect(throws: OAuthError.self) { try noLogout.logoutURL(postLogoutRedirectURI: nil) }
    }
}
