import FoundationEssentials

/// Proof Key for Code Exchange (RFC 7636), method S256 only: `plain` would hand the verifier to anyone
/// who sees the authorization request.
public struct PKCE: Sendable {
    public static let method = "S256"
    public static let verifierLengths = 43...128

    /// The ASCII verifier sent with the token request.
    public let verifier: SecretBytes

    /// base64url(SHA-256(verifier)), sent with the authorization request.
    public var challenge: String {
        Base64URL.encode(verifier.withUnsafeBytes { SHA256.hash(data: $0) })
    }

    /// A fresh verifier: 32 random bytes, base64url-encoded into 43 characters.
    public init() {
        let entropy = SecureRandom.secretBytes(count: 32)
        verifier = entropy.withUnsafeBytes { random in
            SecretBytes(count: Base64URL.encodedCount(random.count)) { Base64URL.encode(random, into: $0) }
        }
    }

    /// Throws `.invalidParameter` unless `verifier` is 43 to 128 characters of A-Z a-z 0-9 - . _ ~.
    public init(verifier: String) throws(CryptoError) {
        guard Self.verifierLengths.contains(verifier.utf8.count), verifier.utf8.allSatisfy(Self.isUnreserved) else {
            throw .invalidParameter("PKCE verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
        }
        self.verifier = SecretBytes(utf8: verifier)
    }

    private static func isUnreserved(_ character: UInt8) -> Bool {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
