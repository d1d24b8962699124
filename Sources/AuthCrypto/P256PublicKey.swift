import FoundationEssentials

/// A NIST P-256 public key for checking ES256 signatures (JWTs signed by an EC key of a JWKS).
public struct P256PublicKey: Sendable {
    private let key: OpenSSLP256PublicKey

    /// `x` and `y` are the point's 32-byte big-endian coordinates, as in a JWK's `x` and `y` after base64url
    /// decoding. Throws `.invalidKey` for coordinates of another length or a point that is not on the curve.
    public init(x: some DataProtocol, y: some DataProtocol) throws(CryptoError) {
        key = try x.withContiguousBytes { (x) throws(CryptoError) in
            try y.withContiguousBytes { (y) throws(CryptoError) in try OpenSSLP256PublicKey(x: x, y: y) }
        }
    }

    /// ECDSA P-256 with SHA-256 (JWS "ES256") over `message`; `signature` is the 64-byte `r || s` of a JWS.
    public func isValidSignature(_ signature: some DataProtocol, for message: some DataProtocol) -> Bool {
        signature.withContiguousBytes { key.isValidRawSignature($0, for: message) }
    }
}
