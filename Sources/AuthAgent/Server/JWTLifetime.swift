import AuthCrypto

/// When a token was issued and when it expires, read from its own claims (`iat`, `exp`), as the store reads them.
/// The token itself was verified when it arrived; decoding is enough here.
struct JWTLifetime: Sendable, Equatable {
    let issuedAt: Double
    let expiresAt: Double

    /// Nil when the token is not a JWT with both claims: such a token is never cached.
    init?(_ token: SecretBytes) {
        let claims: JSONValue? = token.withUnsafeBytes { bytes in
            let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count == 3, let payload = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)) else { return nil }
            return JSONValue.parse(payload)
        }
        guard let issuedAt = claims?["iat"]?.number, let expiresAt = claims?["exp"]?.number else { return nil }
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
