import AuthCrypto
import BoundedJSON
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing

@testable import TokenVerification

/// Serves a JWKS document from memory and counts the fetches: the network itself is the transport's tests' concern.
final class KeySetServer: HTTPTransport {
    private let state = Locked<(document: Data, status: Int, fetches: Int)>((Data(), 200, 0))

    init(keys: [any TestSigningKey]) throws {
        try serve(keys)
    }

    func serve(_ keys: [any TestSigningKey], status: Int = 200) throws {
        let document = try jwksDocument(keys)
        state.withLock {
            $0.document = document
            $0.status = status
        }
    }

    var fetches: Int { state.withLock { $0.fetches } }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let (document, status) = state.withLock { state -> (Data, Int) in
            state.fetches += 1
            return (state.document, state.status)
        }
        try? await Task.sleep(for: .milliseconds(5))
        return HTTPResponse(status: status, headers: [], body: Array(document))
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds = Locked<Double>(1_000)
    func advance(by delta: Double) { seconds.withLock { $0 += delta } }
    var now: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
}

@Suite struct TokenVerifierTests {
    static let issuer = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Test1"
    static let clientId = "client123"
    static let key = try! RSATestKey(kid: "key-1")

    let server: KeySetServer
    let verifier: TokenVerifier
    let unixNow = Date().timeIntervalSince1970

    init() throws {
        server = try KeySetServer(keys: [Self.key])
        let cache = JWKSCache(url: "https://example.test/jwks.json", transport: server)
        verifier = TokenVerifier(issuer: Self.issuer, clientId: Self.clientId, keys: cache)
    }

    func idClaims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": Self.issuer, "aud": Self.clientId, "token_use": "id", "sub": "user-1",
            "exp": Int(unixNow) + 3600, "iat": Int(unixNow), "cognito:username": "alice",
            "email": "alice@example.com", "nonce": "n-123",
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func accessClaims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": Self.issuer, "client_id": Self.clientId, "token_use": "access",
            "sub": "user-1", "exp": Int(unixNow) + 3600, "iat": Int(unixNow), "username": "alice",
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    @Test func validIDAndAccessTokensVerify() async throws {
        let id = try await verifier.verifyIDToken(try Self.key.mintJWT(claims: idClaims()), nonce: "n-123")
        #expect(id.claims.username == "alice")
        #expect(id.claims.email == "alice@example.com")
        let access = try await verifier.verifyAccessToken(try Self.key.mintJWT(claims: accessClaims()))
        #expect(access.claims.username == "alice")
        #expect(server.fetches == 1)
    }

    @Test func federatedIdentitiesAreRead() async throws {
        let identities: [[String: Any]] = [
            ["providerName": "Google", "userId": "1234567890", "providerType": "Google"]
        ]
        let jwt = try await verifier.verifyIDToken(try Self.key.mintJWT(claims: idClaims(["identities": identities])))
        #expect(jwt.claims.identities == [FederatedIdentity(providerName: "Google", userId: "1234567890")])
    }

    @Test func audienceMayBeAListWithTheClientAsAuthorizedParty() async throws {
        let jwt = try await verifier.verifyIDToken(
            try Self.key.mintJWT(claims: idClaims(["aud": ["other", Self.clientId], "azp": Self.clientId])))
        #expect(jwt.claims.audience == ["other", Self.clientId])
        let withoutParty = try Self.key.mintJWT(claims: idClaims(["aud": ["other", Self.clientId]]))
        await #expect(throws: TokenError.wrongAuthorizedParty(expected: Self.clientId)) {
            try await verifier.verifyIDToken(withoutParty)
        }
    }

    @Test func tamperedSignatureAndClaimsAreRejected() async throws {
        let token = try Self.key.mintJWT(claims: idClaims())
        var parts = token.split(separator: ".").map(String.init)
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"
        let badSignature = "\(parts[0]).\(parts[1]).\(String(signature))"
        await #expect(throws: TokenError.badSignature) { try await verifier.verifyIDToken(badSignature) }

        let forgedClaims = try JSONSerialization.data(
            withJSONObject: idClaims(["cognito:username": "mallory"]), options: [.sortedKeys])
        parts[1] = Base64URLText.encode(Array(forgedClaims))
        await #expect(throws: TokenError.badSignature) {
            try await verifier.verifyIDToken(parts.joined(separator: "."))
        }
    }

    @Test func tokenFromAnotherKeyWithTheSameKidIsRejected() async throws {
        let impostor = try RSATestKey(kid: "key-1")
        await #expect(throws: TokenError.badSignature) {
            try await verifier.verifyIDToken(try impostor.mintJWT(claims: idClaims()))
        }
    }

    @Test func claimChecks() async throws {
        let cases: [([String: Any], TokenError)] = [
            (["exp": Int(unixNow) - 3600], .expired(at: Double(Int(unixNow) - 3600))),
            (["nbf": Int(unixNow) + 3600], .notYetValid(until: Double(Int(unixNow) + 3600))),
            (["iat": Int(unixNow) + 3600], .notYetValid(until: Double(Int(unixNow) + 3600))),
            (["iss": "https://evil.example"], .wrongIssuer(expected: Self.issuer, found: "https://evil.example")),
            (["aud": "someone-else"], .wrongAudience(expected: Self.clientId)),
            (["token_use": "access"], .wrongTokenUse(expected: "id", found: "access")),
        ]
        for (changes, expected) in cases {
            let token = try Self.key.mintJWT(claims: idClaims(changes))
            await #expect(throws: expected) { try await verifier.verifyIDToken(token, nonce: "n-123") }
        }
        var noExpiry = idClaims()
        noExpiry.removeValue(forKey: "exp")
        let token = try Self.key.mintJWT(claims: noExpiry)
        await #expect(throws: TokenError.missingClaim("exp")) { try await verifier.verifyIDToken(token) }

        let wrongClient = try Self.key.mintJWT(claims: accessClaims(["client_id": "other"]))
        await #expect(throws: TokenError.wrongClient(expected: Self.clientId)) {
            try await verifier.verifyAccessToken(wrongClient)
        }
        let idAsAccess = try Self.key.mintJWT(claims: idClaims())
        await #expect(throws: TokenError.wrongTokenUse(expected: "access", found: "id")) {
            try await verifier.verifyAccessToken(idAsAccess)
        }
    }

    @Test func leewayToleratesSmallSkew() async throws {
        let justExpired = try Self.key.mintJWT(claims: idClaims(["exp": Int(unixNow) - 20]))
        _ = try await verifier.verifyIDToken(justExpired)
        let almostValid = try Self.key.mintJWT(claims: idClaims(["nbf": Int(unixNow) + 20]))
        _ = try await verifier.verifyIDToken(almostValid)
    }

    @Test func nonceMustMatchWhenExpected() async throws {
        let token = try Self.key.mintJWT(claims: idClaims())
        await #expect(throws: TokenError.nonceMismatch) { try await verifier.verifyIDToken(token, nonce: "other") }
        var noNonce = idClaims()
        noNonce.removeValue(forKey: "nonce")
        let withoutNonce = try Self.key.mintJWT(claims: noNonce)
        await #expect(throws: TokenError.nonceMismatch) {
            try await verifier.verifyIDToken(withoutNonce, nonce: "n-123")
        }
        _ = try await verifier.verifyIDToken(withoutNonce)
    }

    @Test func malformedTokensAndOtherAlgorithms() async throws {
        for garbage in ["", "abc", "a.b", "a.b.c.d", "!!.??.**", "e30.e30.e30"] {
            await #expect(throws: TokenError.self) { try await verifier.verifyIDToken(garbage) }
        }
        let hs256 = try Self.key.mintJWT(claims: idClaims(), header: ["alg": "HS256", "kid": "key-1"])
        await #expect(throws: TokenError.unsupportedAlgorithm("HS256")) { try await verifier.verifyIDToken(hs256) }
        let none = try Self.key.mintJWT(claims: idClaims(), header: ["alg": "none", "kid": "key-1"])
        await #expect(throws: TokenError.unsupportedAlgorithm("none")) { try await verifier.verifyIDToken(none) }
        let noKid = try Self.key.mintJWT(claims: idClaims(), header: ["alg": "RS256"])
        await #expect(throws: TokenError.malformed("the header has no 'kid'")) {
            try await verifier.verifyIDToken(noKid)
        }
    }

    /// Claims are read by the bounded JSON parser: nesting past its bound and repeated claims are malformed.
    @Test func claimsBeyondTheParsersBoundsAreMalformed() async throws {
        var nested: Any = 1
        for _ in 0..<JSONValue.maximumDepth { nested = [nested] }
        let tooDeep = try Self.key.mintJWT(claims: idClaims(["deep": nested]))
        await #expect(throws: TokenError.malformed("the claims are not a JSON object")) {
            try await verifier.verifyIDToken(tooDeep)
        }
        let good = try Self.key.mintJWT(claims: idClaims())
        let parts = good.split(separator: ".")
        let repeated = Base64URL.encode(Array(#"{"sub":"a","sub":"b"}"#.utf8))
        #expect(throws: TokenError.malformed("the claims are not a JSON object")) {
            try JWT(compact: "\(parts[0]).\(repeated).\(parts[2])")
        }
    }

    @Test func unverifiedClaimsAreTheVerifiedOnesAndNilForWhatIsNoJWT() async throws {
        let token = try Self.key.mintJWT(claims: idClaims())
        let verified = try await verifier.verifyIDToken(token)
        let decoded = try #require(Claims(unverifiedPayloadOf: SecretBytes(utf8: token)))
        #expect(decoded == verified.claims)
        #expect(decoded.expiresAt == Double(Int(unixNow) + 3600))
        for garbage in ["", "a.b", "a.!!.c", "e30.W10.e30"] {
            #expect(Claims(unverifiedPayloadOf: SecretBytes(utf8: garbage)) == nil)
        }
    }

    @Test func errorsNeverContainTheToken() async throws {
        let token = try Self.key.mintJWT(claims: idClaims(["aud": "x"]))
        do {
            _ = try await verifier.verifyIDToken(token)
            Issue.record("expected a failure")
        } catch {
            expectNoSecrets(in: error.description, [String(token.split(separator: ".")[1])], "the token's claims")
        }
    }
}

@Suite struct JWKSCacheTests {
    @Test func unknownKidRefetchesAtMostOncePerInterval() async throws {
        let first = try RSATestKey(kid: "k1")
        let second = try RSATestKey(kid: "k2")
        let server = try KeySetServer(keys: [first])
        let clock = ManualClock()
        let cache = JWKSCache(url: "https://example.test/jwks", transport: server, now: clock.now)

        _ = try await cache.key(for: "k1")
        _ = try await cache.key(for: "k1")
        #expect(server.fetches == 1)

        // The issuer rotates in k2, but a refetch within 10 s is refused.
        try server.serve([first, second])
        clock.advance(by: 5)
        await #expect(throws: TokenError.unknownKey(kid: "k2")) { try await cache.key(for: "k2") }
        #expect(server.fetches == 1)

        clock.advance(by: 6)
        _ = try await cache.key(for: "k2")
        #expect(server.fetches == 2)

        // A flood of forged kids costs at most one fetch per interval.
        for index in 0..<50 {
            await #expect(throws: TokenError.unknownKey(kid: "forged-\(index)")) {
                try await cache.key(for: "forged-\(index)")
            }
        }
        #expect(server.fetches == 2)
    }

    @Test func concurrentFirstUsesShareOneFetch() async throws {
        let key = try RSATestKey(kid: "k1")
        let server = try KeySetServer(keys: [key])
        let cache = JWKSCache(url: "https://example.test/jwks", transport: server)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try await cache.key(for: "k1") } }
            try await group.waitForAll()
        }
        #expect(server.fetches == 1)
    }

    @Test func unavailableKeySetIsReportedAsSuchAndRetriedAfterTheInterval() async throws {
        let key = try RSATestKey(kid: "k1")
        let server = try KeySetServer(keys: [key])
        try server.serve([key], status: 503)
        let clock = ManualClock()
        let cache = JWKSCache(url: "https://example.test/jwks", transport: server, now: clock.now)
        await #expect(throws: TokenError.keySetUnavailable("HTTP 503 from https://example.test/jwks")) {
            try await cache.key(for: "k1")
        }
        await #expect(throws: TokenError.keySetUnavailable("HTTP 503 from https://example.test/jwks")) {
            try await cache.key(for: "k1")
        }
        #expect(server.fetches == 1)
        try server.serve([key])
        clock.advance(by: 11)
        _ = try await cache.key(for: "k1")
        #expect(server.fetches == 2)
    }

    @Test func keySetParsingSkipsKeysItCannotUse() throws {
        let key = try RSATestKey(kid: "good")
        var entries: [[String: String]] = [try key.jwk()]
        entries.append(["kty": "EC", "kid": "ec", "crv": "P-256", "x": "AA", "y": "AA"])
        entries.append(["kty": "RSA", "kid": "enc", "use": "enc", "n": try key.jwk()["n"]!, "e": "AQAB"])
        entries.append(["kty": "RSA", "kid": "broken", "n": "!!", "e": "AQAB"])
        let document = try JSONSerialization.data(withJSONObject: ["keys": entries])
        let set = try JSONWebKeySet(json: document)
        #expect(Array(set.keys.keys) == ["good"])
        #expect(throws: TokenError.self) { try JSONWebKeySet(json: Data("not json".utf8)) }
    }
}
