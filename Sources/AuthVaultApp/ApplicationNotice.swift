/// Something the application tells a person once, on its own initiative: a reason, naming no command (the front
/// end that shows it adds what to do).
public enum ApplicationNotice: Sendable, Equatable, CustomStringConvertible {
    /// No unlocked Secret Service: the profile's tokens go to the encrypted file vault in `directory`.
    case fileVaultChosen(profile: String, directory: String, reason: String)

    public var description: String {
        switch self {
        case .fileVaultChosen(let profile, let directory, let reason):
            "No unlocked Secret Service (\(reason)): profile '\(profile)' will keep its tokens in the encrypted file vault in \(directory)."
        }
    }
}
