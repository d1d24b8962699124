import AuthCrypto
import FoundationEssentials

/// Verifies the tokens of one Cognito app client: RS256 signature by `kid`, then the claims Cognito documents.
/// Every token that arrives from a sign-in or refresh goes through here once before it is stored.
public struct TokenVerifier: Sendable {
    public let issuer: String
    public let clientId: String
    public let keys: JWKSCache
    /// Allowed clock skew, in seconds, for `exp`, `nbf` and `iat`.
    public let leeway: Double
    private let now: @Sendable () -> Double

    public init(
        issuer: String,
        clientId: String,
        keys: JWKSCache,
        leeway: Double = 60,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.issuer = issuer
        self.clientId = clientId
        self.keys = keys
        self.leeway = leeway
        self.now = now
    }

    /// An ID token: `token_use` "id", `aud` the client, and the sign-in's `nonce` when one was sent.
    public func verifyIDToken(_ token: String, nonce: String? = nil) async throws(TokenError) -> JWT {
        let jwt = try await verifiedSignature(token)
        try checkCommonClaims(jwt.claims, tokenUse: "id")
        guard jwt.claims.audience.contains(clientId) else { throw .wrongAudience(expected: clientId) }
        if let nonce {
            guard let found = jwt.claims.nonce, ConstantTime.equals(found, nonce) else {
                throw .nonceMismatch
            }
        }
        return jwt
    }

    /// An access token: `token_use` "access" and `client_id` the client.
    public func verifyAccessToken(_ token: String) async throws(TokenError) -> JWT {
        let jwt = try await verifiedSignature(token)
        try checkCommonClaims(jwt.claims, tokenUse: "access")
        guard jwt.claims.clientId == clientId else { throw .wrongClient(expected: clientId) }
        return jwt
    }

    private func verifiedSignature(_ token: String) async throws(TokenError) -> JWT {
        let jwt = try JWT(compact: token)
        guard jwt.header.alg == "RS256" else { throw .unsupportedAlgorithm(jwt.header.alg) }
        guard let kid = jwt.header.kid else { throw .malformed("the header has no 'kid'") }
        let key = try await keys.key(for: kid)
        guard key.isValidSignature(jwt.signature, for: jwt.signingInput) else { throw .badSignature }
        return jwt
    }

    private func checkCommonClaims(_ claims: Claims, tokenUse: String) throws(TokenError) {
        guard let found = claims.issuer else { throw .missingClaim("iss") }
        guard found == issuer else { throw .wrongIssuer(expected: issuer, found: found) }
        guard let use = claims.tokenUse else { throw .missingClaim("token_use") }
        guard use == tokenUse else { throw .wrongTokenUse(expected: tokenUse, found: use) }
        let current = now()
        guard let expiry = claims.expiresAt else { throw .missingClaim("exp") }
        guard current < expiry + leeway else { throw .expired(at: expiry) }
        if let notBefore = claims.notBefore, current + leeway < notBefore { throw .notYetValid(until: notBefore) }
        if let issuedAt = claims.issuedAt, current + leeway < issuedAt { throw .notYetValid(until: issuedAt) }
    }
}
