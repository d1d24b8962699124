import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// The whole browser sign-in against django-oauth-toolkit with Cognito's paths (TestSupport's OAuthServer), the
/// browser played by its scripted form login: authorize, code exchange (public and confidential clients), tokens
/// verified with the server's JWKS, refresh with rotation, reuse of a rotated-out token, revocation, userinfo,
/// logout; and what the real server refuses: replayed codes, plain PKCE, no PKCE.
@Suite struct OAuthFlowTests {
    static let transport = CurlTransport(
        configuration: CurlTransportConfiguration(connectTimeout: .seconds(2), defaultTimeout: .seconds(10)))

    struct Fixture {
        let server: OAuthServer
        let session: BrowserSession

        static func make() async throws -> Fixture {
            Fixture(server: try await OAuthServer.shared(), session: try BrowserSession())
        }

        func client(
            _ client: OAuthServer.Client = OAuthServer.publicClient, endpoints: OAuthEndpoints? = nil,
            transport: (any HTTPTransport)? = nil
        ) throws -> OAuthClient {
            let transport = transport ?? OAuthFlowTests.transport
            let configuration = OAuthClientConfiguration(
                endpoints: try endpoints ?? OAuthEndpoints(hostedUIBaseURL: server.baseURL), clientId: client.clientId,
                clientSecret: client.clientSecret.map(SecretBytes.init(utf8:)), redirectURI: OAuthServer.redirectURI,
                retryPolicy: RetryPolicy(maximumAttempts: 2, initialBackoff: .milliseconds(20)))
            let verifier = TokenVerifier(
                issuer: server.issuer, clientId: client.clientId,
                keys: JWKSCache(url: server.jwksURL, transport: OAuthFlowTests.transport))
            return try OAuthClient(configuration: configuration, transport: transport, verifier: verifier)
        }

        /// The browser's part: sign in on the server's login page and come back with the callback URL.
        func callback(for request: OAuthAuthorizationRequest, as user: OAuthServer.User = OAuthServer.federatedUser)
            async throws -> String
        {
            try await server.browse(request.url, as: user, session: session).redirect
        }

        func signIn(_ client: OAuthClient, as user: OAuthServer.User = OAuthServer.federatedUser) async throws
            -> OAuthTokens
        {
            let request = try client.authorizationRequest(identityProvider: "Google")
            let code = try request.authorizationCode(fromCallback: try await callback(for: request, as: user))
            return try await client.exchange(code, for: request)
        }
    }

    @Test(arguments: [OAuthServer.publicClient, OAuthServer.confidentialClient])
    func signInRefreshWithRotationAndReuse(client serverClient: OAuthServer.Client) async throws {
        let fixture = try await Fixture.make()
        let client = try fixture.client(serverClient)
        let signedIn = try await fixture.signIn(client)
        #expect(signedIn.tokens.identity.username == OAuthServer.federatedUser.username)
        #expect(signedIn.tokens.identity.email == OAuthServer.federatedUser.email)
        #expect(signedIn.identities.map { [$0.providerName, $0.userId] } == [["Google", "1122334455"]])
        let idClaims = try JWT(compact: #require(signedIn.tokens.idToken).text).claims
        #expect(idClaims.audience == [serverClient.clientId] && idClaims.issuer == fixture.server.issuer)

        let refreshed = try await client.refresh(
            refreshToken: signedIn.tokens.refreshToken, previousIDToken: signedIn.tokens.idToken)
        #expect(refreshed.refreshTokenRotated)
        #expect(refreshed.tokens.refreshToken != signedIn.tokens.refreshToken)
        #expect(refreshed.tokens.accessToken != signedIn.tokens.accessToken)
        #expect(refreshed.tokens.identity.subject == signedIn.tokens.identity.subject)

        // The rotated-out token is dead, and reusing it kills its successor too (reuse protection).
        for token in [signedIn.tokens.refreshToken, refreshed.tokens.refreshToken] {
            let error = try #require(
                await caughtOAuthError { () async throws(OAuthError) in try await client.refresh(refreshToken: token) })
            #expect(error.requiresSignIn && !error.isRetryable)
            expectNoSecrets(in: error.description, [token.text])
        }
    }

    @Test func userInfoThenRevocation() async throws {
        let fixture = try await Fixture.make()
        let client = try fixture.client()
        let signedIn = try await fixture.signIn(client)
        let info = try await client.userInfo(
            accessToken: signedIn.tokens.accessToken, expectedSubject: signedIn.tokens.identity.subject)
        #expect(info.email == OAuthServer.federatedUser.email)
        #expect(info.username == OAuthServer.federatedUser.username)

        try await client.revoke(refreshToken: signedIn.tokens.refreshToken)
        let error = try #require(
            await caughtOAuthError { () async throws(OAuthError) in
                try await client.refresh(refreshToken: signedIn.tokens.refreshToken)
            })
        #expect(error.requiresSignIn)
        // Revoking the refresh token revoked the access token issued with it.
        await #expect(throws: OAuthError.self) { try await client.userInfo(accessToken: signedIn.tokens.accessToken) }
    }

    @Test func endpointsFromDiscoveryAndSignOut() async throws {
        let fixture = try await Fixture.make()
        let endpoints = try await OAuthEndpoints.discover(fixture.server.discoveryURL, transport: Self.transport)
        let hostedUI = try OAuthEndpoints(hostedUIBaseURL: fixture.server.baseURL)
        #expect(endpoints.authorization == hostedUI.authorization && endpoints.token == hostedUI.token)
        #expect(
            endpoints.userInfo == hostedUI.userInfo && endpoints.revocation == hostedUI.revocation
                && endpoints.logout == hostedUI.logout)
        #expect(endpoints.issuer == fixture.server.issuer && endpoints.jwksURL == fixture.server.jwksURL)
        #expect(endpoints.logoutStyle == .openIDConnect)

        let client = try fixture.client(endpoints: endpoints)
        let signedIn = try await fixture.signIn(client, as: OAuthServer.signOutUser)
        // Without an ID token hint the provider asks the person to confirm; the scripted browser does.
        let logout = try client.logoutURL(postLogoutRedirectURI: OAuthServer.signOutURI)
        let outcome = try await fixture.server.browse(logout, as: nil, session: fixture.session)
        #expect(outcome.redirect == OAuthServer.signOutURI)

        // The server's session is gone: the next sign-in shows the login form again, and the old tokens are dead.
        let again = try client.authorizationRequest()
        #expect(
            try await fixture.server.browse(again.url, as: OAuthServer.signOutUser, session: fixture.session)
                .submittedLoginForm)
        await #expect(throws: OAuthError.self) { try await client.refresh(refreshToken: signedIn.tokens.refreshToken) }
    }

    @Test func aSecondSignInReusesTheServersSession() async throws {
        let fixture = try await Fixture.make()
        let client = try fixture.client()
        let first = try client.authorizationRequest()
        let second = try client.authorizationRequest()
        #expect(
            try await fixture.server.browse(first.url, as: OAuthServer.poolUser, session: fixture.session)
                .submittedLoginForm)
        let outcome = try await fixture.server.browse(second.url, as: OAuthServer.poolUser, session: fixture.session)
        #expect(!outcome.submittedLoginForm)
        let tokens = try await client.exchange(
            try second.authorizationCode(fromCallback: outcome.redirect), for: second)
        #expect(tokens.identities.isEmpty && tokens.tokens.identity.username == OAuthServer.poolUser.username)
        // The first request's callback does not fit the second request.
        #expect(throws: OAuthCallbackError.stateMismatch) {
            try second.authorizationCode(fromCallback: "code=x&state=\(first.state)")
        }
    }

    @Test func opaqueAccessTokensAreAccepted() async throws {
        let fixture = try await Fixture.make()
        let signedIn = try await fixture.signIn(try fixture.client(OAuthServer.opaqueClient), as: OAuthServer.poolUser)
        #expect(signedIn.tokens.accessToken.text.split(separator: ".").count == 1)
        let expected = Date().timeIntervalSince1970 + 3600
        #expect(abs(signedIn.tokens.accessTokenExpiresAt - expected) < 60)
    }

    @Test func aReplayedCodeIsRefused() async throws {
        let fixture = try await Fixture.make()
        let client = try fixture.client()
        let request = try client.authorizationRequest()
        let code = try request.authorizationCode(fromCallback: try await fixture.callback(for: request))
        _ = try await client.exchange(code, for: request)
        let error = try #require(
            await caughtOAuthError { () async throws(OAuthError) in try await client.exchange(code, for: request) })
        guard case .refused(.invalidGrant, _, 400, _) = error else {
            Issue.record("expected invalid_grant, got \(error)")
            return
        }
        #expect(!error.requiresSignIn && !error.isRetryable)
        expectNoSecrets(in: error.description, [code.code.text, request.pkce.verifier.text])
    }

    /// The server issues tokens with the nonce of the request the browser made; a client that expects another
    /// nonce (a replayed or swapped code) keeps nothing.
    @Test func wrongNonceIsRejected() async throws {
        let fixture = try await Fixture.make()
        let client = try fixture.client()
        let request = try client.authorizationRequest()
        let code = try request.authorizationCode(fromCallback: try await fixture.callback(for: request))
        let expectingAnotherNonce = OAuthAuthorizationRequest(
            authorizationEndpoint: client.configuration.endpoints.authorization,
            clientId: client.configuration.clientId,
            redirectURI: request.redirectURI, scopes: client.configuration.scopes, identityProvider: nil,
            pkce: request.pkce,
            state: request.state, nonce: OAuthAuthorizationRequest.randomToken())
        await #expect(throws: OAuthError.tokenRejected(.nonceMismatch)) {
            try await client.exchange(code, for: expectingAnotherNonce)
        }
    }

    @Test func tamperedIDTokenIsRejected() async throws {
        let fixture = try await Fixture.make()
        let tampering = IDTokenTamperingTransport(Self.transport)
        let client = try fixture.client(transport: tampering)
        await #expect(throws: OAuthError.tokenRejected(.badSignature)) { try await fixture.signIn(client) }
        #expect(tampering.tampered)
    }

    /// django-oauth-toolkit with COMPLIANT_BCP_RFC9700_PKCE_METHOD refuses `plain` (the client has no way to send
    /// it), and with PKCE_REQUIRED a request without a challenge.
    @Test func plainOrMissingPKCEIsRefusedByTheServer() async throws {
        let fixture = try await Fixture.make()
        let request = try fixture.client().authorizationRequest()
        let verifier = request.pkce.verifier.text
        let plain = request.url.replacingOccurrences(
            of: "code_challenge_method=S256", with: "code_challenge_method=plain"
        )
        .replacingOccurrences(of: "code_challenge=\(request.pkce.challenge)", with: "code_challenge=\(verifier)")
        let withoutPKCE = request.url.replacingOccurrences(
            of: "&code_challenge=\(request.pkce.challenge)&code_challenge_method=S256", with: "")
        #expect(plain != request.url && withoutPKCE != request.url)
        for url in [plain, withoutPKCE] {
            let outcome = try await fixture.server.browse(url, as: OAuthServer.poolUser, session: fixture.session)
            let error = #expect(throws: OAuthCallbackError.self) {
                try request.authorizationCode(fromCallback: outcome.redirect)
            }
            guard case .authorizationFailed(.invalidRequest, _)? = error else {
                Issue.record("expected invalid_request, got \(String(describing: error))")
                continue
            }
        }
    }
}

/// A real transport that alters one character in the claims of the ID token the token endpoint returns.
final class IDTokenTamperingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let didTamper = Locked(false)

    init(_ inner: any HTTPTransport) {
        self.inner = inner
    }

    var tampered: Bool { didTamper.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        var response = try await inner.send(request)
        guard request.url.hasSuffix("/oauth2/token"),
            var body = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any],
            let idToken = body["id_token"] as? String
        else { return response }
        var parts = idToken.split(separator: ".").map(String.init)
        var claims = try! JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1])!)) as! [String: Any]
        claims["cognito:username"] = "someone-else"
        parts[1] = Base64URLText.encode(Array(try! JSONSerialization.data(withJSONObject: claims)))
        body["id_token"] = parts.joined(separator: ".")
        response.body = Array(try! JSONSerialization.data(withJSONObject: body))
        didTamper.withLock { $0 = true }
        return response
    }
}
