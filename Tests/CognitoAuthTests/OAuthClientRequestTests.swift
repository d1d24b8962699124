import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// A transport that answers every request from a closure (nil: the connection was reset) and records them,
/// serving `jwks` at `jwksURL` (not recorded).
final class URLStubTransport: HTTPTransport {
    struct Request: Sendable {
        let method: String
        let url: String
        let headers: [HTTPHeader]
        let body: [UInt8]
        /// 1 for the first request recorded, and so on.
        let attempt: Int

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

        /// The form body, decoded by Foundation's URLComponents.
        var form: [String: String] {
            var components = URLComponents()
            components.percentEncodedQuery = String(decoding: body, as: UTF8.self)
            return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        }
    }

    static let jwksURL = "https://issuer.example/.well-known/jwks.json"
    private let jwks: Data
    private let handler: @Sendable (Request) -> HTTPResponse?
    private let recorded = Locked<[Request]>([])

    init(jwks: Data = Data(#"{"keys":[]}"#.utf8), handler: @escaping @Sendable (Request) -> HTTPResponse?) {
        self.jwks = jwks
        self.handler = handler
    }

    var requests: [Request] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if request.url == Self.jwksURL { return HTTPResponse(status: 200, headers: [], body: Array(jwks)) }
        let recordedRequest = recorded.withLock { requests in
            let entry = Request(
                method: request.method, url: request.url, headers: request.headers, body: request.body,
                attempt: requests.count + 1)
            requests.append(entry)
            return entry
        }
        guard let response = handler(recordedRequest) else { throw .connectionLost("reset by the stub") }
        return response
    }

    static func json(_ object: [String: Any], status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")] + headers,
            body: Array(try! JSONSerialization.data(withJSONObject: object)))
    }
}

/// The error `body` throws; nil (and an issue) when it returns instead.
func caughtOAuthError<T>(
    _ body: () async throws(OAuthError) -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> OAuthError? {
    do {
        _ = try await body()
        Issue.record("expected an OAuthError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// What the OAuth client sends and how it reads answers, against a stub: the forms, client authentication,
/// token verification (nonce, signature), rotation, error mapping, retries, and that no secret reaches an error.
@Suite struct OAuthClientRequestTests {
    static let issuer = "https://issuer.example"
    static let clientId = "authvault-confidential"
    static let redirectURI = "http://127.0.0.1:53682/callback"
    static let subject = "5f0c3c2e-0000-4000-8000-000000000001"
    static let tokenURL = "https://example.auth.us-east-1.amazoncognito.com/oauth2/token"
    static let fastRetries = RetryPolicy(
        maximumAttempts: 4, initialBackoff: .milliseconds(5), maximumBackoff: .milliseconds(20))

    static func client(
        secret: String? = nil, transport: URLStubTransport, clock: TestClock = TestClock(Date().timeIntervalSince1970)
    ) throws -> OAuthClient {
        let configuration = OAuthClientConfiguration(
            endpoints: try OAuthEndpoints(hostedUIBaseURL: "https://example.auth.us-east-1.amazoncognito.com"),
            clientId: clientId, clientSecret: secret.map(SecretBytes.init(utf8:)), redirectURI: redirectURI,
            operationDeadline: .seconds(30), retryPolicy: fastRetries)
        let verifier = TokenVerifier(
            issuer: issuer, clientId: clientId, keys: JWKSCache(url: URLStubTransport.jwksURL, transport: transport))
        return try OAuthClient(
            configuration: configuration, transport: transport, verifier: verifier, now: clock.now, jitter: { 0.5 })
    }

    static func idToken(nonce: String?, subject: String = subject, extra: [String: Any] = [:]) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "sub": subject, "aud": clientId, "token_use": "id", "iat": now, "exp": now + 3600,
            "cognito:username": "Google_1122334455", "email": "fed@example.com",
            "identities": [
                [
                    "providerName": "Google", "providerType": "Google", "userId": "1122334455",
                    "primary": "true", "issuer": NSNull(), "dateCreated": "1700000000000",
                ]
            ],
        ]
        claims["nonce"] = nonce
        claims.merge(extra) { $1 }
        return try TestTokens.key.mintJWT(claims: claims)
    }

    static func accessToken(clientId: String = clientId, expiresIn: Int = 3600) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        return try TestTokens.key.mintJWT(claims: [
            "iss": issuer, "sub": subject, "client_id": clientId, "token_use": "access",
            "iat": now, "exp": now + expiresIn, "username": "Google_1122334455",
            "scope": "openid email profile",
        ])
    }

    static func tokenAnswer(idToken: String?, accessToken: String, refreshToken: String? = "refresh-1") -> HTTPResponse
    {
        var body: [String: Any] = ["access_token": accessToken, "token_type": "Bearer", "expires_in": 3600]
        body["id_token"] = idToken
        body["refresh_token"] = refreshToken
        return URLStubTransport.json(body)
    }

    static var jwks: Data { TestTokens.jwks }

    @Test func publicClientExchangeSendsTheFormAndVerifiesTheTokens() async throws {
        let request = try Self.client(transport: URLStubTransport { _ in nil }).authorizationRequest()
        let idToken = try Self.idToken(nonce: request.nonce)
        let accessToken = try Self.accessToken()
        let transport = URLStubTransport(jwks: Self.jwks) { _ in
            Self.tokenAnswer(idToken: idToken, accessToken: accessToken)
        }
        let client = try Self.client(transport: transport)
        let code = try request.authorizationCode(fromCallback: "code=the-code&state=\(request.state)")
        let result = try await client.exchange(code, for: request)

        let sent = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(sent.method == "POST" && sent.url == Self.tokenURL)
        #expect(sent.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent.header("Authorization") == nil)
        #expect(
            sent.form == [
                "grant_type": "authorization_code", "code": "the-code", "redirect_uri": Self.redirectURI,
                "code_verifier": request.pkce.verifier.text, "client_id": Self.clientId,
            ])
        expectSecret(idToken, equals: result.tokens.idToken?.text ?? "", "the ID token")
        expectSecret(accessToken, equals: result.tokens.accessToken.text, "the access token")
        expectSecret("refresh-1", equals: result.tokens.refreshToken.text)
        #expect(
            result.tokens.identity
                == VerifiedIdentity(username: "Google_1122334455", subject: Self.subject, email: "fed@example.com"))
        #expect(result.identities.map { [$0.providerName, $0.userId] } == [["Google", "1122334455"]])
        #expect(!result.refreshTokenRotated)
        expectNoSecrets(in: String(describing: result), [idToken, accessToken, "refresh-1"])
    }

    /// The Basic credentials, independently: python3 -c "import base64,urllib.parse as u;
    /// print(base64.b64encode((u.quote('authvault-confidential',safe='')+':'+u.quote('conf+secret/with=chars',safe='')).encode()).decode())"
    @Test func clientWithASecretAuthenticatesWithHTTPBasic() async throws {
        let request = try Self.client(transport: URLStubTransport { _ in nil }).authorizationRequest()
        let idToken = try Self.idToken(nonce: request.nonce)
        let accessToken = try Self.accessToken()
        let transport = URLStubTransport(jwks: Self.jwks) { _ in
            Self.tokenAnswer(idToken: idToken, accessToken: accessToken)
        }
        let client = try Self.client(secret: "conf+secret/with=chars", transport: transport)
        _ = try await client.exchange(
            try request.authorizationCode(fromCallback: "code=c&state=\(request.state)"), for: request)
        let sent = try #require(transport.requests.first)
        #expect(
            sent.header("Authorization") == "Basic YXV0aHZhdWx0LWNvbmZpZGVudGlhbDpjb25mJTJCc2VjcmV0JTJGd2l0aCUzRGNoYXJz"
        )
        #expect(sent.form["client_id"] == nil && sent.form["client_secret"] == nil)
        #expect(
            !String(describing: HTTPRequest(url: sent.url, headers: sent.headers, body: sent.body)).contains(
                "conf+secret"))
    }

    /// A server whose error echoes the request's Authorization header shows no form of the client's credentials: the
    /// header, its base64, the decoded `id:secret`, the secret.
    @Test func anErrorThatEchoesTheBasicHeaderIsRedacted() async throws {
        let echoing = URLStubTransport { request in
            let basic = request.header("Authorization") ?? ""
            let decoded = String(decoding: Data(base64Encoded: String(basic.dropFirst(6))) ?? Data(), as: UTF8.self)
            return URLStubTransport.json(
                ["error": "invalid_client", "error_description": "bad \(basic) (\(decoded))"], status: 401)
        }
        let client = try Self.client(secret: "conf+secret/with=chars", transport: echoing)
        let error = try #require(
            await caughtOAuthError { () async throws(OAuthError) in
                try await client.refresh(refreshToken: SecretBytes(utf8: "refresh-secret-1"))
            })
        guard case .refused(.invalidClient, let message, 401, _) = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(message.hasPrefix("bad <redacted>"), "\(message)")
        expectNoSecrets(
            in: error.description,
            [
                "YXV0aHZhdWx0LWNvbmZpZGVudGlhbDpjb25mJTJCc2VjcmV0JTJGd2l0aCUzRGNoYXJz",
                "conf%2Bsecret", "conf+secret/with=chars", "refresh-secret-1",
            ])
    }

    /// A wrong or missing nonce, an altered ID or access token, a token for another client: nothing is returned.
    @Test func tokensThatDoNotVerifyAreRejected() async throws {
        let request = try Self.client(transport: URLStubTransport { _ in nil }).authorizationRequest()
        let good = try Self.idToken(nonce: request.nonce)
        let access = try Self.accessToken()
        let parts = good.split(separator: ".").map(String.init)
        let forgedClaims = Base64URLText.encode(
            Array(
                String(decoding: Base64URL.decode(parts[1])!, as: UTF8.self)
                    .replacingOccurrences(of: "Google_1122334455", with: "Google_9999999999").utf8))
        let cases: [(String, String, TokenError)] = [
            (try Self.idToken(nonce: "another-sign-in"), access, .nonceMismatch),
            (try Self.idToken(nonce: nil), access, .nonceMismatch),
            ([parts[0], forgedClaims, parts[2]].joined(separator: "."), access, .badSignature),
            (good, try Self.accessToken(clientId: "someone-else"), .wrongClient(expected: Self.clientId)),
        ]
        for (idToken, accessToken, expected) in cases {
            let transport = URLStubTransport(jwks: Self.jwks) { _ in
                Self.tokenAnswer(idToken: idToken, accessToken: accessToken)
            }
            let code = try request.authorizationCode(fromCallback: "code=c&state=\(request.state)")
            await #expect(throws: OAuthError.tokenRejected(expected)) {
                try await Self.client(transport: transport).exchange(code, for: request)
            }
        }
    }

    @Test func refreshKeepsOrRotatesTheRefreshToken() async throws {
        let idToken = try Self.idToken(nonce: nil)
        let accessToken = try Self.accessToken()
        for (answered, expected, rotated) in [
            ("refresh-2", "refresh-2", true), (nil, "refresh-1", false), ("refresh-1", "refresh-1", false),
        ] {
            let transport = URLStubTransport(jwks: Self.jwks) { _ in
                Self.tokenAnswer(idToken: idToken, accessToken: accessToken, refreshToken: answered)
            }
            let result = try await Self.client(transport: transport).refresh(
                refreshToken: SecretBytes(utf8: "refresh-1"))
            expectSecret(expected, equals: result.tokens.refreshToken.text)
            #expect(result.refreshTokenRotated == rotated)
            #expect(
                transport.requests.first?.form == [
                    "grant_type": "refresh_token", "refresh_token": "refresh-1", "client_id": Self.clientId,
                ])
        }
    }

    @Test func refreshWithoutAnIDTokenKeepsThePreviousOneAndANewOneMustBeTheSameUser() async throws {
        let previous = try Self.idToken(nonce: "n")
        let accessToken = try Self.accessToken()
        let keeping = URLStubTransport(jwks: Self.jwks) { _ in
            Self.tokenAnswer(idToken: nil, accessToken: accessToken, refreshToken: nil)
        }
        let kept = try await Self.client(transport: keeping).refresh(
            refreshToken: SecretBytes(utf8: "r"), previousIDToken: SecretBytes(utf8: previous))
        expectSecret(previous, equals: kept.tokens.idToken?.text ?? "", "the previous ID token is kept")
        await #expect(throws: OAuthError.self) {
            try await Self.client(transport: keeping).refresh(refreshToken: SecretBytes(utf8: "r"))
        }

        let otherUser = try Self.idToken(nonce: nil, subject: "another-subject", extra: [:])
        let switching = URLStubTransport(jwks: Self.jwks) { _ in
            Self.tokenAnswer(idToken: otherUser, accessToken: accessToken)
        }
        await #expect(throws: OAuthError.self) {
            try await Self.client(transport: switching).refresh(
                refreshToken: SecretBytes(utf8: "r"), previousIDToken: SecretBytes(utf8: previous))
        }
    }

    /// `invalid_grant` ends the session only on refresh; the server's description never carries what was sent.
    @Test func invalidGrantOnRefreshRequiresSignIn() async throws {
        let echoing = URLStubTransport { request in
            URLStubTransport.json(
                [
                    "error": "invalid_grant",
                    "error_description":
                        "token \(request.form["refresh_token"] ?? "") \(request.form["code"] ?? "") is dead",
                ], status: 400)
        }
        let confidential = try Self.client(secret: "the-client-secret", transport: echoing)
        let onRefresh = try #require(
            await caughtOAuthError { () async throws(OAuthError) in
                try await confidential.refresh(refreshToken: SecretBytes(utf8: "refresh-secret-1"))
            })
        #expect(onRefresh.requiresSignIn && !onRefresh.isRetryable)
        guard case .refused(.invalidGrant, let message, 400, _) = onRefresh else {
            Issue.record("expected invalid_grant, got \(onRefresh)")
            return
        }
        #expect(message.contains("token <redacted>  is dead"))
        expectNoSecrets(in: onRefresh.description, ["refresh-secret-1", "the-client-secret"])

        let client = try Self.client(transport: echoing)
        let request = try client.authorizationRequest()
        let code = try request.authorizationCode(fromCallback: "code=code-secret-2&state=\(request.state)")
        let onExchange = try #require(
            await caughtOAuthError { () async throws(OAuthError) in try await client.exchange(code, for: request) })
        #expect(!onExchange.requiresSignIn && !onExchange.isRetryable)
        expectNoSecrets(in: onExchange.description, ["code-secret-2", request.pkce.verifier.text])
        #expect(echoing.requests.count == 2)
    }

    @Test func transientFailuresAreRetriedAndOthersAreNot() async throws {
        let idToken = try Self.idToken(nonce: nil)
        let accessToken = try Self.accessToken()
        let flaky = URLStubTransport(jwks: Self.jwks) { request in
            switch request.attempt {
            case 1: nil
            case 2: URLStubTransport.json(["error": "temporarily_unavailable"], status: 400)
            case 3: HTTPResponse(status: 502, headers: [], body: Array("<html>Bad Gateway</html>".utf8))
            default: Self.tokenAnswer(idToken: idToken, accessToken: accessToken)
            }
        }
        _ = try await Self.client(transport: flaky).refresh(refreshToken: SecretBytes(utf8: "r"))
        #expect(flaky.requests.count == 4)

        let down = URLStubTransport { _ in HTTPResponse(status: 500, headers: [], body: Array("<html>oops</html>".utf8))
        }
        await #expect(throws: OAuthError.serverError(status: 500)) {
            try await Self.client(transport: down).refresh(refreshToken: SecretBytes(utf8: "r"))
        }
        #expect(down.requests.count == 4)

        let refused = URLStubTransport { _ in URLStubTransport.json(["error": "invalid_client"], status: 401) }
        let refusedClient = try Self.client(secret: "s", transport: refused)
        let error = try #require(
            await caughtOAuthError { () async throws(OAuthError) in
                try await refusedClient.refresh(refreshToken: SecretBytes(utf8: "r"))
            })
        #expect(!error.isRetryable && !error.requiresSignIn)
        #expect(error.description.contains("invalid_client"))
        #expect(refused.requests.count == 1)
    }

    /// The client's own reasons: only invalid_grant on refresh ends a session; the server's trouble is retryable
    /// whatever status it came with; what was sent never shows in a description.
    @Test func oauthErrorsSayWhetherToRetryOrSignInAgain() async throws {
        let answers: [(body: [String: Any], status: Int, retryable: Bool)] = [
            (["error": "temporarily_unavailable"], 400, true),
            (["error": "server_error", "error_description": "r-secret down"], 500, true),
            (["error": "invalid_request"], 400, false), (["error": "invalid_client"], 401, false), ([:], 503, true),
            ([:], 429, true), ([:], 404, false),
        ]
        for answer in answers {
            let response = URLStubTransport.json(answer.body, status: answer.status)
            let transport = URLStubTransport { _ in response }
            let client = try Self.client(transport: transport)
            let error = try #require(
                await caughtOAuthError { () async throws(OAuthError) in
                    try await client.refresh(refreshToken: SecretBytes(utf8: "r-secret"))
                })
            #expect(error.isRetryable == answer.retryable, "\(answer)")
            #expect(!error.requiresSignIn, "\(answer)")
            expectNoSecrets(in: error.description, ["r-secret"])
        }
        #expect(OAuthError.refused(.invalidGrant, description: "", status: 400, operation: .refresh).requiresSignIn)
        #expect(
            !OAuthError.refused(.invalidGrant, description: "", status: 400, operation: .codeExchange).requiresSignIn)
        #expect(OAuthError.network(.timedOut).isRetryable && !OAuthError.network(.timedOut).requiresSignIn)
    }

    @Test func opaqueAccessTokenExpiresAfterExpiresIn() async throws {
        let clock = TestClock(1_800_000_000)
        let idToken = try Self.idToken(nonce: nil)
        let transport = URLStubTransport(jwks: Self.jwks) { _ in
            URLStubTransport.json([
                "access_token": "opaque-access-token", "token_type": "bearer", "expires_in": "900", "id_token": idToken,
            ])
        }
        let result = try await Self.client(transport: transport, clock: clock).refresh(
            refreshToken: SecretBytes(utf8: "r"))
        expectSecret("opaque-access-token", equals: result.tokens.accessToken.text)
        #expect(result.tokens.accessTokenExpiresAt == 1_800_000_900)
    }

    @Test func revocationSendsTheRefreshToken() async throws {
        let transport = URLStubTransport { _ in HTTPResponse(status: 200, headers: [], body: []) }
        try await Self.client(secret: "s", transport: transport).revoke(refreshToken: SecretBytes(utf8: "refresh-1"))
        let sent = try #require(transport.requests.first)
        #expect(sent.url == "https://example.auth.us-east-1.amazoncognito.com/oauth2/revoke")
        #expect(sent.form == ["token": "refresh-1", "token_type_hint": "refresh_token"])
        #expect(sent.header("Authorization")?.hasPrefix("Basic ") == true)

        let unsupported = URLStubTransport { _ in
            URLStubTransport.json(["error": "unsupported_token_type"], status: 400)
        }
        await #expect(throws: OAuthError.self) {
            try await Self.client(transport: unsupported).revoke(refreshToken: SecretBytes(utf8: "r"))
        }
    }

    @Test func userInfoSendsTheBearerTokenAndChecksTheSubject() async throws {
        let transport = URLStubTransport { request in
            request.header("Authorization") == "Bearer access-1"
                ? URLStubTransport.json([
                    "sub": Self.subject, "email": "fed@example.com", "username": "Google_1122334455",
                ])
                : URLStubTransport.json(
                    [:], status: 401,
                    headers: [
                        HTTPHeader(
                            name: "WWW-Authenticate",
                            value: #"Bearer error="invalid_token", error_description="expired""#)
                    ])
        }
        let client = try Self.client(transport: transport)
        let info = try await client.userInfo(accessToken: SecretBytes(utf8: "access-1"), expectedSubject: Self.subject)
        #expect(info.email == "fed@example.com" && info.username == "Google_1122334455")
        #expect(transport.requests.first?.method == "GET")
        #expect(transport.requests.first?.url == "https://example.auth.us-east-1.amazoncognito.com/oauth2/userInfo")
        await #expect(throws: OAuthError.self) {
            try await client.userInfo(accessToken: SecretBytes(utf8: "access-1"), expectedSubject: "other")
        }
        let error = try #require(
            await caughtOAuthError { () async throws(OAuthError) in
                try await client.userInfo(accessToken: SecretBytes(utf8: "stale-access"))
            })
        #expect(error.description.contains("invalid_token") && !error.isRetryable)
        expectNoSecrets(in: error.description, ["stale-access"])
    }
}
