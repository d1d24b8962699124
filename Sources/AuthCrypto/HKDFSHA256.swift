import FoundationEssentials

/// HKDF with SHA-256 (RFC 5869): extract with `salt`, expand with `info`.
public enum HKDFSHA256 {
    /// RFC 5869 allows at most 255 blocks of output.
    public static let maximumOutputByteCount = 255 * SHA256.byteCount

    /// An empty salt means HashLen zero bytes, as in the RFC.
    public static func deriveKey(
        inputKeyMaterial: some DataProtocol,
        salt: some DataProtocol,
        info: some DataProtocol,
        outputByteCount: Int
    ) throws(CryptoError) -> SecretBytes {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw .invalidParameter("HKDF output must be 1 to \(maximumOutputByteCount) bytes")
        }
        return try inputKeyMaterial.withContiguousBytes { (ikm) throws(CryptoError) -> SecretBytes in
            try salt.withContiguousBytes { (salt) throws(CryptoError) -> SecretBytes in
                try info.withContiguousBytes { (info) throws(CryptoError) -> SecretBytes in
                    try OpenSSLKDF.hkdfSHA256(ikm: ikm, salt: salt, info: info, outputByteCount: outputByteCount)
                }
            }
        }
    }
}
