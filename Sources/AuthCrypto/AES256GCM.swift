import FoundationEssentials

/// AES-256 in Galois/Counter Mode (NIST SP 800-38D) with 96-bit nonces and 128-bit tags.
public enum AES256GCM {
    public static let keyByteCount = 32
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// What `seal` produces and `open` takes.
    public struct SealedBox: Sendable, Equatable {
        public let nonce: [UInt8]
        public let ciphertext: [UInt8]
        public let tag: [UInt8]

        /// nonce || ciphertext || tag, the layout most formats store.
        public var combined: [UInt8] { nonce + ciphertext + tag }

        public init(combined: some DataProtocol) throws(CryptoError) {
            let bytes = [UInt8](combined)
            guard bytes.count >= nonceByteCount + tagByteCount else {
                throw .invalidParameter("AES-GCM sealed box must be at least \(nonceByteCount + tagByteCount) bytes")
            }
            try self.init(
                nonce: bytes.prefix(nonceByteCount),
                ciphertext: bytes.dropFirst(nonceByteCount).dropLast(tagByteCount),
                tag: bytes.suffix(tagByteCount))
        }

        public init(nonce: some DataProtocol, ciphertext: some DataProtocol, tag: some DataProtocol) throws(CryptoError)
        {
            guard nonce.count == nonceByteCount else {
                throw .invalidParameter("AES-GCM nonce must be \(nonceByteCount) bytes")
            }
            guard tag.count == tagByteCount else {
                throw .invalidParameter("AES-GCM tag must be \(tagByteCount) bytes")
            }
            self.nonce = [UInt8](nonce)
            self.ciphertext = [UInt8](ciphertext)
            self.tag = [UInt8](tag)
        }
    }

    /// Encrypts and authenticates `plaintext`, and authenticates `aad` without encrypting it.
    /// Leave `nonce` nil for a fresh random one; a nonce must never repeat under the same key.
    public static func seal(
        _ plaintext: some DataProtocol,
        using key: SecretBytes,
        nonce: [UInt8]? = nil,
        authenticating aad: some DataProtocol
    ) throws(CryptoError) -> SealedBox {
        guard key.count == keyByteCount else { throw .invalidKey }
        let nonce = nonce ?? SecureRandom.bytes(count: nonceByteCount)
        guard nonce.count == nonceByteCount else {
            throw .invalidParameter("AES-GCM nonce must be \(nonceByteCount) bytes")
        }
        let (ciphertext, tag) = try key.withUnsafeBytes { (key) throws(CryptoError) in
            try plaintext.withContiguousBytes { (plaintext) throws(CryptoError) in
                try aad.withContiguousBytes { (aad) throws(CryptoError) in
                    try OpenSSLCipher.sealAES256GCM(plaintext, key: key, nonce: nonce, aad: aad)
                }
            }
        }
        return try SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// Decrypts `box` after checking its tag over the ciphertext and `aad`; any mismatch is `.authenticationFailure`.
    public static func open(
        _ box: SealedBox,
        using key: SecretBytes,
        authenticating aad: some DataProtocol
    ) throws(CryptoError) -> SecretBytes {
        guard key.count == keyByteCount else { throw .invalidKey }
        return try key.withUnsafeBytes { (key) throws(CryptoError) in
            try aad.withContiguousBytes { (aad) throws(CryptoError) in
                try OpenSSLCipher.openAES256GCM(box, key: key, aad: aad)
            }
        }
    }
}
