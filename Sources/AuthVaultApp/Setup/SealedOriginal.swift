import AuthCrypto
import FoundationEssentials

/// A tool file's bytes before the first setup, kept only in a form that opens with the very bytes setup last wrote:
/// sealed (AES-256-GCM) under a key derived (HKDF-SHA256, a random salt) from them. The file may hold secrets
/// (docker's `auths`, a kubeconfig's keys and tokens, AWS keys). While it still holds what setup wrote, the undo
/// puts back the original byte for byte; once anyone changes it (a password rotated, a key deleted), the key went
/// with the old bytes: the copy opens for nobody, so no stale secret is readable at rest and no undo brings one back.
struct SealedOriginal: Sendable, Equatable, Codable {
    private static let info = Array("authvault setup original".utf8)
    let salt: Data
    /// Nonce, ciphertext and tag.
    let box: Data

    init(_ original: [UInt8], openedBy written: [UInt8]) throws(CryptoError) {
        let salt = SecureRandom.bytes(count: SHA256.byteCount)
        let key = try Self.key(written, salt: salt)
        self.salt = Data(salt)
        box = Data(try AES256GCM.seal(original, using: key, authenticating: []).combined)
    }

    /// The original bytes, when `current` is what setup last wrote; nil otherwise.
    func open(with current: [UInt8]?) -> [UInt8]? {
        guard let current, let key = try? Self.key(current, salt: salt),
            let sealed = try? AES256GCM.SealedBox(combined: box),
            let opened = try? AES256GCM.open(sealed, using: key, authenticating: [])
        else { return nil }
        return opened.withUnsafeBytes { Array($0) }
    }

    /// The same original, opened by `next` instead of `current`; unchanged when `current` does not open it (the
    /// file was edited since: it will not be put back whole).
    func resealed(from current: [UInt8]?, to next: [UInt8]) throws(CryptoError) -> SealedOriginal {
        guard let original = open(with: current) else { return self }
        return try SealedOriginal(original, openedBy: next)
    }

    private static func key(_ written: [UInt8], salt: some DataProtocol) throws(CryptoError) -> SecretBytes {
        try HKDFSHA256.deriveKey(
            inputKeyMaterial: written, salt: salt, info: info, outputByteCount: AES256GCM.keyByteCount)
    }
}
