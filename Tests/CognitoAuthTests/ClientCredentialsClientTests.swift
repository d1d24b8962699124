import AuthCrypto
import Foundation
import HTTPTransport
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// The client-credentials grant against a stub: the form and HTTP Basic (ids and secrets with reserved characters),
/// JWT access tokens verified and opaque ones timed by `expires_in`, the refusals as typed errors, no secret in any.
@Suite struct ClientCredentialsClientTests {
    static let issuer = OAuthClientRequestTests.issuer
    static let tokenURL = OAuthClientRequestTests.tokenURL

    static func client(
        id: String = "ci-client", secret: String = "s3cret", scopes: [String] = ["api/read", "api/write"],
        transport: URLStubTransport, clock: TestClock = TestClock(Date().timeIntervalSince1970)
    ) throws -> ClientCredentialsClient {
        let configuration = ClientCredentialsClient.Configuration(
            tokenEndpoint: tokenURL, clientId: id, clientSecret: SecretBytes(utf8: secret), scopes: scopes,
            operationDeadline: .seconds(30), retryPolicy: OAuthClientRequestTests.fastRetries)
        let verifier = TokenVerifier(
            issuer: issuer, clientId: id, keys: JWKSCache(url: URLStubTransport.jwksURL, transport: transport))
        return try ClientCredentialsClient(
            configuration: configuration, transport: transport, verifier: verifier, now: clock.now, jitter: { 0.5 })
    }

    /// A Cognito machine-to-machine access token: the client is the subject.
    static func machineAccessToken(clientId: String = "ci-client", lifetime: Int = 3600) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        return try TestTokens.key.mintJWT(claims: [
            "iss": issuer, "sub": clientId, "client_id": clientId, "token_use": "access",
            "scope": "api/read api/write", "iat": now, "exp": now + lifetime,
        ])
    }

    /// The expected header, independently: python3 -c "import base64,urllib.parse as u;
    /// print(base64.b64encode((u.quote('ci:client+1',safe='')+':'+u.quote('p%ss:w/rd+ =',safe='')).encode()).decode())"
    @Test func sendsTheGrantAndScopesWithHTTPBasicOfReservedCharacters() async throws {
        let token = try Self.machineAccessToken(clientId: "ci:client+1")
        let transport = URLStubTransport(jwks: TestTokens.jwks) { _ in
            URLStubTransport.json(["access_token": token, "token_type": "Bearer", "expires_in": 3600])
        }
        let result = try await Self.client(id: "ci:client+1", secret: "p%ss:w/rd+ =", transport: transport).token()
        let sent = try #require(transport.requests.first)
        #expect(transport.requests.count == 1 && sent.method == "POST" && sent.url == Self.tokenURL)
        #expect(sent.header("Authorization") == "Basic Y2klM0FjbGllbnQlMkIxOnAlMjVzcyUzQXclMkZyZCUyQiUyMCUzRA==")
        #expect(sent.form == ["grant_type": "client_credentials", "scope": "api/read api/write"])
        #expect(result.clientId == "ci:client+1" && result.scopes == ["api/read", "api/write"])
        #expect(result.accessToken == SecretBytes(utf8: token))
        #expect(result.expiresAt == Claims(unverifiedPayloadOf: SecretBytes(utf8: token))?.expiresAt)
        expectNoSecrets(in: String(describing: result), [token], "the result's description")
    }

    @Test func anOpaqueTokenLastsExpiresInAndGrantedScopesAreRead() async throws {
        let clock = TestClock(Date().timeIntervalSince1970)
        let transport = URLStubTransport { _ in
            URLStubTransport.json([
                "access_token": "opaque-token", "token_type": "bearer", "expires_in": "900", "scope": "api/read",
            ])
        }
        let result = try await Self.client(scopes: [], transport: transport, clock: clock).token()
        #expect(
            transport.requests.first?.form == ["grant_type": "client_credentials"], "no scope: the client's defaults")
        #expect(result.expiresAt == clock.now() + 900 && result.issuedAt == clock.now())
        #expect(result.scopes == ["api/read"])
    }

    @Test func aTokenForAnotherClientIsRejected() async throws {
        let token = try Self.machineAccessToken(clientId: "someone-else")
        let transport = URLStubTransport(jwks: TestTokens.jwks) { _ in
            URLStubTransport.json(["access_token": token, "token_type": "Bearer", "expires_in": 3600])
        }
        await #expect(throws: OAuthError.tokenRejected(.wrongClient(expected: "ci-client"))) {
            try await Self.client(transport: transport).token()
        }
    }

    /// The refusals come back typed, the scopes asked for named with invalid_scope, no secret in any message.
    @Test func refusalsAreTypedAndNameTheScopes() async throws {
        for (code, status) in [("invalid_client", 401), ("invalid_scope", 400), ("unauthorized_client", 400)] {
            let transport = URLStubTransport { _ in
                URLStubTransport.json(["error": code, "error_description": "echo s3cret"], status: status)
            }
            let client = try Self.client(transport: transport)
            let error = try #require(await caughtOAuthError { () async throws(OAuthError) in try await client.token() })
            guard case .refused(let refused, let description, status, .clientCredentials) = error else {
                Issue.record("unexpected \(error)")
                continue
            }
            #expect(refused == OAuthErrorCode(code))
            #expect(description.contains("api/read api/write") == (code == "invalid_scope"), "\(description)")
            #expect(transport.requests.count == 1, "a refusal is not retried")
            expectNoSecrets(in: error.description, ["s3cret"])
        }
    }

    /// The machine's client secret travels only in the Basic header: an error that echoes the header, encoded or
    /// decoded, shows none of it.
    @Test func anErrorThatEchoesTheBasicHeaderIsRedacted() async throws {
        let transport = URLStubTransport { request in
            let basic = request.header("Authorization") ?? ""
            let decoded = String(decoding: Data(base64Encoded: String(basic.dropFirst(6))) ?? Data(), as: UTF8.self)
            return URLStubTransport.json(
                ["error": "invalid_client", "error_description": "\(basic) / \(decoded)"], status: 401)
        }
        let client = try Self.client(transport: transport)
        let error = try #require(await caughtOAuthError { () async throws(OAuthError) in try await client.token() })
        // Y2ktY2xpZW50OnMzY3JldA== is base64("ci-client:s3cret").
        expectNoSecrets(in: error.description, ["Basic", "Y2ktY2xpZW50OnMzY3JldA==", "ci-client:s3cret", "s3cret"])
    }

    @Test func theSecretIsRequired() throws {
        #expect(throws: OAuthError.self) { try Self.client(secret: "", transport: URLStubTransport { _ in nil }) }
    }
}

extension ClientCredentialsClientTests {
    /// The secret goes to the token endpoint: never over plain http to another host.
    @Test func aPlainHTTPTokenEndpointOffLoopbackIsRefused() throws {
        let configuration = ClientCredentialsClient.Configuration(
            tokenEndpoint: "http://idp.example.com/oauth2/token", clientId: "ci-client",
            clientSecret: SecretBytes(utf8: "s3cret"), scopes: [])
        let transport = URLStubTransport { _ in nil }
        let verifier = TokenVerifier(
            issuer: Self.issuer, clientId: "ci-client",
            keys: JWKSCache(url: URLStubTransport.jwksURL, transport: transport))
        #expect(throws: OAuthError.self) {
            try ClientCredentialsClient(configuration: configuration, transport: transport, verifier: verifier)
        }
    }
}
