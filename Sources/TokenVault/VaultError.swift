/// Why the vault could not do what was asked. Messages say what went wrong, never which command fixes it (the
/// application adds that); none carries a secret.
public enum VaultError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Secret Service collection is locked and could not be unlocked without a prompt.
    case locked(String)
    /// No session bus, or no Secret Service on it.
    case unavailable(String)
    /// The Secret Service did not answer within the bound.
    case timedOut(seconds: Double)
    /// The encrypted file needs its passphrase and none was given.
    case passphraseRequired(String)
    /// This vault object was locked (`lock()`): it reads and writes nothing until `unlock()`, whatever passphrase
    /// source or key cache it has.
    case lockedUntilUnlocked
    case wrongPassphrase
    /// The file is truncated, altered or not ours. Nothing was changed.
    case corrupted(location: String, reason: String)
    case unsupportedVersion(location: String, version: Int)
    /// The file or its directory is open to other users.
    case unsafePermissions(String)
    /// The profile lock could not be taken in time.
    case lockTimedOut(profile: String, seconds: Double)
    case io(String)

    public var description: String {
        switch self {
        case .locked(let detail):
            return "The keyring is locked (\(detail))."
        case .unavailable(let detail):
            return "No Secret Service is available (\(detail))."
        case .timedOut(let seconds):
            return "The Secret Service did not answer within \(seconds) s. Check the keyring daemon."
        case .passphraseRequired(let detail):
            return "The encrypted vault needs its passphrase: \(detail)"
        case .lockedUntilUnlocked:
            return "The encrypted vault was locked, and stays locked until it is unlocked."
        case .wrongPassphrase:
            return "Wrong vault passphrase. Nothing was changed; try again."
        case .corrupted(let location, let reason):
            return "The vault file \(location) is damaged (\(reason)). It was left untouched; restore it from a backup "
                + "or move it away and sign in again."
        case .unsupportedVersion(let location, let version):
            return "The vault file \(location) has format version \(version), which this authvault does not know. "
                + "Upgrade authvault; the file was left untouched."
        case .unsafePermissions(let detail):
            return detail
        case .lockTimedOut(let profile, let seconds):
            return
                "Another authvault process held the lock of profile '\(profile)' for more than \(seconds) s; try again."
        case .io(let detail):
            return detail
        }
    }
}
