import FoundationEssentials

/// SHA-256 (FIPS 180-4).
public enum SHA256 {
    public static let byteCount = 32

    /// The 32-byte digest of `data`.
    public static func hash(data: some DataProtocol) -> [UInt8] {
        OpenSSLDigest.sha256(data)
    }
}
