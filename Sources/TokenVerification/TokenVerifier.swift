import AuthCrypto
import FoundationEssentials

/// Verifies the tokens of one app client: the signature by `kid` with the algorithm of that JWKS key (RS256 or
/// ES256), then the claims. Every token that arrives from a sign-in or refresh goes through here once before it is
/// stored.
public struct TokenVerifier: Sendable {
    /// Which claims a token must carry besides OpenID Connect's.
    public enum ClaimRules: Sendable, Equatable {
        /// A Cognito user pool: `token_use` on both tokens, access tokens are JWTs with `client_id`.
        case cognito
        /// Any other OpenID provider (OpenID Connect Core 3.1.3.7): ID tokens only; access tokens are opaque.
        case openIDConnect
    }

    public let issuer: String
    public let clientId: String
    public let keys: JWKSCache
    public let rules: ClaimRules
    /// Allowed clock skew, in seconds, for `exp`, `nbf` and `iat`.
    public let leeway: Double
    private let now: @Sendable () -> Double

    public init(
        issuer: String,
        clientId: String,
        keys: JWKSCache,
        rules: ClaimRules = .cognito,
        leeway: Double = 60,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.issuer = issuer
        self.clientId = clientId
        self.keys = keys
        self.rules = rules
        self.leeway = leeway
        self.now = now
    }

    /// Whether access tokens are this verifier's business: only Cognito's are JWTs a client may read.
    public var verifiesAccessTokens: Bool { rules == .cognito }

    /// An ID token: `aud` containing the client (and `azp` the client when there are several audiences or `azp`
    /// is given), the sign-in's `nonce` when one was sent, and under Cognito's rules `token_use` "id".
    public func verifyIDToken(_ token: String, nonce: String? = nil) async throws(TokenError) -> JWT {
        let jwt = try await verifiedSignature(token)
        try checkCommonClaims(jwt.claims, tokenUse: "id")
        if rules == .openIDConnect {
            guard jwt.claims.subject != nil else { throw .missingClaim("sub") }
            guard jwt.claims.issuedAt != nil else { throw .missingClaim("iat") }
        }
        let audience = jwt.claims.audience
        guard audience.contains(clientId) else { throw .wrongAudience(expected: clientId) }
        let authorizedParty = jwt.claims["azp"]?.string
        if audience.count > 1 || authorizedParty != nil {
            guard authorizedParty == clientId else { throw .wrongAuthorizedParty(expected: clientId) }
        }
        if let nonce {
            guard let found = jwt.claims.nonce, ConstantTime.equals(found, nonce) else {
                throw .nonceMismatch
            }
        }
        return jwt
    }

    /// A Cognito access token: `token_use` "access" and `client_id` the client. Another provider's access token is
    /// opaque to the client (see `verifiesAccessTokens`).
    public func verifyAccessToken(_ token: String) async throws(TokenError) -> JWT {
        let jwt = try await verifiedSignature(token)
        try checkCommonClaims(jwt.claims, tokenUse: "access")
        guard jwt.claims.clientId == clientId else { throw .wrongClient(expected: clientId) }
        return jwt
    }

    private func verifiedSignature(_ token: String) async throws(TokenError) -> JWT {
        let jwt = try JWT(compact: token)
        // Checked before any fetch, so `none` or HS256 never reaches the key set.
        guard JSONWebKey.supportedAlgorithms.contains(jwt.header.alg) else {
            throw .unsupportedAlgorithm(jwt.header.alg)
        }
        let key: JSONWebKey
        if let kid = jwt.header.kid {
            key = try await keys.key(for: kid)
        } else if rules == .openIDConnect {
            key = try await keys.soleKey()
        } else {
            throw .malformed("the header has no 'kid'")
        }
        guard key.algorithm == jwt.header.alg else {
            throw .algorithmMismatch(header: jwt.header.alg, key: key.algorithm)
        }
        guard key.isValidSignature(jwt.signature, for: jwt.signingInput) else { throw .badSignature }
        return jwt
    }

    private func checkCommonClaims(_ claims: Claims, tokenUse: String) throws(TokenError) {
        guard let found = claims.issuer else { throw .missingClaim("iss") }
        guard found == issuer else { throw .wrongIssuer(expected: issuer, found: found) }
        if rules == .cognito {
            guard let use = claims.tokenUse else { throw .missingClaim("token_use") }
            guard use == tokenUse else { throw .wrongTokenUse(expected: tokenUse, found: use) }
        }
        if let claim = claims.timesOutOfRange.first { throw .timeOutOfRange(claim) }
        let current = now()
        guard let expiry = claims.expiresAt else { throw .missingClaim("exp") }
        guard current < expiry + leeway else { throw .expired(at: expiry) }
        if let notBefore = claims.notBefore, current + leeway < notBefore { throw .notYetValid(until: notBefore) }
        if let issuedAt = claims.issuedAt, current + leeway < issuedAt { throw .notYetValid(until: issuedAt) }
    }
}
