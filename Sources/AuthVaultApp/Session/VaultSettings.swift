import TokenVault

/// Where a profile built in code (`ProfileSession.open(profile:settings:vault:)`) keeps its session. Every file the
/// session writes — the record and key file of the encrypted vault, the profile's lock and its note of a failed
/// refresh, the change stamps — goes inside the one directory named here, created with mode 0700.
public enum VaultSettings: Sendable {
    /// The record in the Secret Service's default collection, and the profile's lock and change stamp in
    /// `stateDirectory`. Nobody is prompted to unlock the collection: a locked one is the store's `.vault` error.
    case secretService(stateDirectory: String)
    /// The record encrypted in `directory` under a key wrapped by the passphrase `passphrase` gives; it is asked for
    /// once per process, when the key is first needed. `keyCache` is off by default: the user keyring would keep the
    /// key outside the directory, where every process of this uid finds it; `.userKeyring(timeout:)` shares it
    /// with them (the `authvault` command among them), so only the first process derives it.
    case encryptedFile(directory: String, passphrase: PassphraseSource, keyCache: DataKeyCache = .disabled)

    /// The directory every file of the session goes in.
    var directory: String {
        switch self {
        case .secretService(let directory), .encryptedFile(let directory, _, _): directory
        }
    }

    /// The backend that holds the record, bound to the profile's pool and client as a configured profile's is.
    func backend(profile: String, binding: ProfileBinding?) -> any VaultBackend {
        let bindings = binding.map { [profile: $0] } ?? [:]
        switch self {
        case .secretService(let directory):
            return SecretServiceVault(changeStamps: ChangeStamps(dataDirectory: directory), bindings: bindings)
        case .encryptedFile(let directory, let passphrase, let keyCache):
            return EncryptedFileVault(
                directory: directory, passphrase: passphrase, keyCache: keyCache, bindings: bindings)
        }
    }
}
