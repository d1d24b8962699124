/// Where the file vault keeps its unwrapped data key between processes, so the KDF runs once per unlock.
public enum DataKeyCache: Sendable, Equatable {
    /// Every process derives the key from the passphrase.
    case disabled
    /// A "user" key in the kernel's user keyring (`keyctl show @u`), readable by every process of this uid (in any
    /// session keyring: cron, services, CI and containers too) and by no other uid, expiring `timeout` after the
    /// passphrase was given.
    case userKeyring(timeout: Duration)

    /// The user keyring, for an hour.
    public static let standard = DataKeyCache.userKeyring(timeout: .seconds(3600))
}
