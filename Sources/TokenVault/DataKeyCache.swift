/// Where the file vault keeps its unwrapped data key between processes, so the KDF runs once per login session.
public enum DataKeyCache: Sendable, Equatable {
    /// Every process derives the key from the passphrase.
    case disabled
    /// A "user" key in the kernel session keyring (`keyctl show @s`), shared by the processes of the login
    /// session, expiring `timeout` after the passphrase was given.
    case sessionKeyring(timeout: Duration)

    /// The session keyring, for an hour.
    public static let standard = DataKeyCache.sessionKeyring(timeout: .seconds(3600))
}
