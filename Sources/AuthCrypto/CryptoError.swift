/// Why a cryptographic operation failed. Messages name the operation, never the data.
public enum CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag or signature did not match: wrong key, tampered data or wrong associated data.
    case authenticationFailure
    /// The key has the wrong size or shape (for example not 32 bytes for AES-256, or an RSA modulus under 2048 bits).
    case invalidKey
    /// An argument is out of range; the text says which one and what is allowed.
    case invalidParameter(String)
    /// OpenSSL refused for another reason; the text is the operation and OpenSSL's own first error.
    case openSSL(String)

    public var description: String {
        switch self {
        case .authenticationFailure: return "authentication failed: the data, key or associated data do not match"
        case .invalidKey: return "invalid key"
        case .invalidParameter(let text): return "invalid parameter: \(text)"
        case .openSSL(let text): return "OpenSSL error: \(text)"
        }
    }
}
