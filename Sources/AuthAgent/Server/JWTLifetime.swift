import AuthCrypto
import TokenVerification

/// When a token was issued and when it expires, read from its own claims (`iat`, `exp`), as the store reads them.
/// The token itself was verified when it arrived; decoding is enough here.
struct JWTLifetime: Sendable, Equatable {
    let issuedAt: Double
    let expiresAt: Double

    /// Nil when the token is not a JWT with both claims: such a token is never cached.
    init?(_ token: SecretBytes) {
        let claims = Claims(unverifiedPayloadOf: token)
        guard let issuedAt = claims?.issuedAt, let expiresAt = claims?.expiresAt else { return nil }
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
