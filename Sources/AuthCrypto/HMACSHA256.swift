import FoundationEssentials

/// HMAC with SHA-256 (RFC 2104). Compare codes with `ConstantTime.equals`, never `==`.
public enum HMACSHA256 {
    public static let byteCount = 32

    /// The 32-byte code for `data` under `key` (keys of any length, including empty).
    public static func authenticationCode(for data: some DataProtocol, key: some DataProtocol) -> [UInt8] {
        key.withContiguousBytes { OpenSSLMAC.hmacSHA256(data, key: $0) }
    }

    public static func authenticationCode(for data: some DataProtocol, key: SecretBytes) -> [UInt8] {
        key.withUnsafeBytes { keyBuffer in
            // The SecretBytes buffer is never nil-based, so it goes to OpenSSL as is.
            OpenSSLMAC.hmacSHA256(data, key: keyBuffer)
        }
    }
}
