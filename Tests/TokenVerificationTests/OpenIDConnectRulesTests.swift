import Foundation
import TestSupport
import Testing

@testable import TokenVerification

/// ID tokens of an OpenID provider other than Cognito (OpenID Connect Core 3.1.3.7): no `token_use`, RS256 or ES256
/// as the JWKS key says, `aud`/`azp`, `iss`, `exp`/`iat` and `nonce`.
@Suite struct OpenIDConnectRulesTests {
    static let issuer = "https://id.example.test/realms/main"
    static let clientId = "authvault-cli"
    static let rsaKey = try! RSATestKey(kid: "rsa-1")
    static let ecKey = try! P256TestKey(kid: "ec-1")

    let server: KeySetServer
    let verifier: TokenVerifier
    let unixNow = Date().timeIntervalSince1970

    init() throws {
        server = try KeySetServer(keys: [Self.rsaKey, Self.ecKey])
        verifier = TokenVerifier(
            issuer: Self.issuer, clientId: Self.clientId,
            keys: JWKSCache(url: "https://id.example.test/jwks", transport: server), rules: .openIDConnect)
    }

    /// What a generic provider puts in an ID token: no Cognito claims.
    func claims(_ changes: [String: Any] = [:], removing removed: [String] = []) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": Self.issuer, "aud": Self.clientId, "sub": "248289761001", "exp": Int(unixNow) + 600,
            "iat": Int(unixNow), "nonce": "n-0S6_WzA2Mj", "preferred_username": "jane",
        ]
        for (name, value) in changes { claims[name] = value }
        for name in removed { claims.removeValue(forKey: name) }
        return claims
    }

    @Test func rs256AndES256IDTokensWithoutTokenUseVerify() async throws {
        for key in [Self.rsaKey, Self.ecKey] as [any TestSigningKey] {
            let jwt = try await verifier.verifyIDToken(try key.mintJWT(claims: claims()), nonce: "n-0S6_WzA2Mj")
            #expect(jwt.header.alg == key.algorithm)
            #expect(jwt.claims.subject == "248289761001")
        }
        #expect(verifier.verifiesAccessTokens == false, "another provider's access tokens are opaque")
    }

    @Test func theAlgorithmIsTheKeysNotTheHeaders() async throws {
        // An ES256 key's kid under an RS256 header, and the other way round: refused before any signature check.
        let claimsRS256ForECKey = try Self.rsaKey.mintJWT(claims: claims(), header: ["alg": "RS256", "kid": "ec-1"])
        await #expect(throws: TokenError.algorithmMismatch(header: "RS256", key: "ES256")) {
            try await verifier.verifyIDToken(claimsRS256ForECKey)
        }
        let claimsES256ForRSAKey = try Self.ecKey.mintJWT(claims: claims(), header: ["alg": "ES256", "kid": "rsa-1"])
        await #expect(throws: TokenError.algorithmMismatch(header: "ES256", key: "RS256")) {
            try await verifier.verifyIDToken(claimsES256ForRSAKey)
        }
        let impostor = try P256TestKey(kid: "ec-1")
        await #expect(throws: TokenError.badSignature) {
            try await verifier.verifyIDToken(try impostor.mintJWT(claims: claims()))
        }
    }

    @Test func audienceAuthorizedPartyIssuerAndNonce() async throws {
        let several = ["https://api.example.test", Self.clientId]
        _ = try await verifier.verifyIDToken(
            try Self.ecKey.mintJWT(claims: claims(["aud": several, "azp": Self.clientId])))
        let cases: [([String: Any], TokenError)] = [
            (["aud": "someone-else"], .wrongAudience(expected: Self.clientId)),
            (["aud": ["someone-else", "another"], "azp": Self.clientId], .wrongAudience(expected: Self.clientId)),
            (["aud": several], .wrongAuthorizedParty(expected: Self.clientId)),
            (["aud": several, "azp": "someone-else"], .wrongAuthorizedParty(expected: Self.clientId)),
            (["azp": "someone-else"], .wrongAuthorizedParty(expected: Self.clientId)),
            (["iss": Self.issuer + "/"], .wrongIssuer(expected: Self.issuer, found: Self.issuer + "/")),
            (["nonce": "another"], .nonceMismatch),
            (["exp": Int(unixNow) - 600], .expired(at: Double(Int(unixNow) - 600))),
            (["iat": Int(unixNow) + 600], .notYetValid(until: Double(Int(unixNow) + 600))),
        ]
        for (changes, expected) in cases {
            let token = try Self.ecKey.mintJWT(claims: claims(changes))
            await #expect(throws: expected) { try await verifier.verifyIDToken(token, nonce: "n-0S6_WzA2Mj") }
        }
        for required in ["iss", "sub", "exp", "iat"] {
            let token = try Self.rsaKey.mintJWT(claims: claims(removing: [required]))
            await #expect(throws: TokenError.missingClaim(required)) { try await verifier.verifyIDToken(token) }
        }
        let noNonce = try Self.rsaKey.mintJWT(claims: claims(removing: ["nonce"]))
        await #expect(throws: TokenError.nonceMismatch) {
            try await verifier.verifyIDToken(noNonce, nonce: "n-0S6_WzA2Mj")
        }
    }

    @Test func aHeaderWithoutKidUsesTheSetsOnlyKey() async throws {
        let single = TokenVerifier(
            issuer: Self.issuer, clientId: Self.clientId,
            keys: JWKSCache(url: "https://id.example.test/jwks", transport: try KeySetServer(keys: [Self.ecKey])),
            rules: .openIDConnect)
        let noKid = try Self.ecKey.mintJWT(claims: claims(), header: ["alg": "ES256", "typ": "JWT"])
        _ = try await single.verifyIDToken(noKid)
        let wrongAlgorithm = try Self.rsaKey.mintJWT(claims: claims(), header: ["alg": "RS256"])
        await #expect(throws: TokenError.algorithmMismatch(header: "RS256", key: "ES256")) {
            try await single.verifyIDToken(wrongAlgorithm)
        }
        await #expect(throws: TokenError.malformed("the header has no 'kid' and the key set holds 2 keys")) {
            try await verifier.verifyIDToken(noKid)
        }
    }

    @Test func cognitosRulesStillRequireTokenUse() async throws {
        let cognito = TokenVerifier(
            issuer: Self.issuer, clientId: Self.clientId,
            keys: JWKSCache(url: "https://id.example.test/jwks", transport: server))
        let token = try Self.ecKey.mintJWT(claims: claims())
        await #expect(throws: TokenError.missingClaim("token_use")) { try await cognito.verifyIDToken(token) }
        _ = try await cognito.verifyIDToken(try Self.ecKey.mintJWT(claims: claims(["token_use": "id"])))
        #expect(cognito.verifiesAccessTokens)
    }

    @Test func keySetKeepsP256KeysAndSkipsOtherCurvesAndMismatchedAlgorithms() throws {
        var ec = try Self.ecKey.jwk()
        var entries: [[String: String]] = [ec, try Self.rsaKey.jwk()]
        ec["kid"] = "p384"
        ec["crv"] = "P-384"
        entries.append(ec)
        ec["kid"] = "claims-rs256"
        ec["crv"] = "P-256"
        ec["alg"] = "RS256"
        entries.append(ec)
        var rsa = try Self.rsaKey.jwk()
        rsa["kid"] = "claims-es256"
        rsa["alg"] = "ES256"
        entries.append(rsa)
        let set = try JSONWebKeySet(json: try JSONSerialization.data(withJSONObject: ["keys": entries]))
        #expect(set.keys.keys.sorted() == ["ec-1", "rsa-1"])
        #expect(set.keys["ec-1"]?.algorithm == "ES256")
        #expect(set.keys["rsa-1"]?.algorithm == "RS256")
    }
}
