import FoundationEssentials

/// An RSA public key for checking RS256 signatures (JWTs signed by a JWKS key).
public struct RSAPublicKey: Sendable {
    /// Moduli outside this range are refused: under 2048 bits is too weak, 16384 is OpenSSL's own ceiling.
    public static let minimumModulusBits = 2048
    public static let maximumModulusBits = 16384

    private let key: OpenSSLRSAPublicKey

    /// `modulus` and `exponent` are big-endian unsigned integers, as in a JWK's `n` and `e` after base64url
    /// decoding. Throws `.invalidKey` for a modulus outside 2048...16384 bits or an exponent that is even,
    /// 1, or not below the modulus.
    public init(modulus: some DataProtocol, exponent: some DataProtocol) throws(CryptoError) {
        key = try modulus.withContiguousBytes { (modulus) throws(CryptoError) in
            try exponent.withContiguousBytes { (exponent) throws(CryptoError) in
                try OpenSSLRSAPublicKey(
                    modulus: modulus, exponent: exponent,
                    allowedModulusBits: Self.minimumModulusBits...Self.maximumModulusBits)
            }
        }
    }

    /// The modulus size in bits.
    public var modulusBits: Int { key.modulusBits }

    /// RSASSA-PKCS1-v1_5 with SHA-256 (JWS "RS256") over `message`.
    public func isValidSignature(_ signature: some DataProtocol, for message: some DataProtocol) -> Bool {
        signature.withContiguousBytes { key.isValidPKCS1SHA256Signature($0, for: message) }
    }
}
