import AuthCrypto
import Synchronization

/// The one place the file vault runs its KDF, counted so that tests and `vault status` can show that a warm read
/// (data key from memory or the user keyring) derives nothing.
enum PassphraseKeyDerivation {
    static let runs = Atomic<Int>(0)

    /// Largest parameters a key file may ask for: anything above is treated as a damaged file rather than an
    /// invitation to allocate gigabytes or spin for minutes.
    static let maximumMemoryBytes: UInt64 = 1 << 30
    static let maximumParallelism: UInt32 = 16

    static func isAcceptable(_ parameters: ScryptParameters) -> Bool {
        (1...30).contains(parameters.logN) && parameters.r >= 1 && (1...maximumParallelism).contains(parameters.p)
            && parameters.memoryBytes <= maximumMemoryBytes
    }

    /// The 32-byte key-encryption key for `passphrase`: CPU- and memory-heavy, so callers run it on a dedicated thread.
    static func keyEncryptionKey(
        passphrase: SecretBytes, salt: [UInt8], parameters: ScryptParameters
    ) throws(VaultError) -> SecretBytes {
        runs.add(1, ordering: .relaxed)
        do {
            return try Scrypt.deriveKey(
                password: passphrase, salt: salt, parameters: parameters,
                outputByteCount: AES256GCM.keyByteCount)
        } catch {
            throw .io("cannot derive the vault key: \(error)")
        }
    }
}
