import AuthCrypto
import FuzzSupport
import TokenVault

/// The vault record decoders: the encrypted file's envelope, its authenticated opening under a fixed key, and the
/// serialized record itself (what the Secret Service and the opened file hold), and the fresh token the file vault
/// keeps in the kernel keyring (`FreshTokenEntry`, whose payload any process of the user can replace).
@main enum VaultRecordFuzz: FuzzTarget {
    static let dataKey = SecretBytes(Array(repeating: 0x5A, count: 32))

    static func test(_ input: [UInt8]) {
        if let envelope = try? VaultRecordFile.envelope(of: input, location: "fuzz") {
            _ = try? VaultRecordFile.open(envelope, profile: "fuzz", using: dataKey, location: "fuzz")
        }
        _ = try? CredentialRecord(serialized: SecretBytes(input))
        _ = FreshTokenEntry(parsing: SecretBytes(input))
    }
}
