import AuthCrypto

/// Where the encrypted-file vault gets its passphrase. The CLI builds it (from `AUTHVAULT_VAULT_PASSPHRASE`, the
/// file named by `AUTHVAULT_VAULT_PASSPHRASE_FILE`, or a no-echo prompt on a TTY); the vault only calls it, and
/// only when the data key is not already unlocked in memory or in the user keyring.
public struct PassphraseSource: Sendable {
    /// Why the vault asks, so a prompt can say so and ask twice when a new vault is being created.
    public enum Purpose: Sendable, Equatable {
        /// Unlock an existing vault.
        case unlock
        /// Create a new vault: the passphrase becomes the vault's; confirm it.
        case create
        /// Unlock an existing vault again: the passphrase given before was wrong.
        case retryUnlock
    }

    private let provider: @Sendable (Purpose) async throws(VaultError) -> SecretBytes
    /// How many passphrases an unlock may try: a person at a terminal mistypes (three, as sudo and ssh allow);
    /// a passphrase from the environment or a file is the same each time (one).
    public let tries: Int

    public init(tries: Int = 1, _ provider: @escaping @Sendable (Purpose) async throws(VaultError) -> SecretBytes) {
        self.tries = max(1, tries)
        self.provider = provider
    }

    /// A passphrase already in hand (read from the environment or a file).
    public static func fixed(_ passphrase: SecretBytes) -> PassphraseSource {
        PassphraseSource { _ in passphrase }
    }

    /// No passphrase can be had (non-interactive, nothing configured): `hint` says how to give one.
    public static func unavailable(_ hint: String) -> PassphraseSource {
        PassphraseSource { _ throws(VaultError) in throw .passphraseRequired(hint) }
    }

    public func passphrase(for purpose: Purpose) async throws(VaultError) -> SecretBytes {
        let passphrase = try await provider(purpose)
        guard passphrase.count > 0 else { throw .passphraseRequired("the passphrase is empty") }
        return passphrase
    }
}
