/// What is wrong with the configuration. Each message names the file or profile; the command line adds what to do.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(path: String, problem: String)
    case unsupportedVersion(path: String, version: Int)
    /// `reason` names the file itself (a `FileSystemError`'s description does).
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case noSuchProfile(name: String, path: String, known: [String])
    case incomplete(profile: String, missing: String)
    case invalidValue(option: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let path, let problem):
            return
                "The configuration file \(path) is malformed: \(problem). Fix or move the file; it was left unchanged."
        case .unsupportedVersion(let path, let version):
            return "The configuration file \(path) has version \(version), newer than this authvault understands; "
                + "the file was left unchanged."
        case .unreadable(_, let reason):
            return "Cannot read the configuration file: \(reason)."
        case .unwritable(let path, let reason):
            return "Cannot write the configuration file \(path): \(reason). Nothing was changed."
        case .noSuchProfile(let name, let path, let known):
            let list = known.isEmpty ? "there are none yet" : "known profiles: \(known.joined(separator: ", "))"
            return "No profile named '\(name)' in \(path) (\(list))."
        case .incomplete(let profile, let missing):
            return "Profile '\(profile)' is incomplete: \(missing) is not set."
        case .invalidValue(let option, let value, let reason):
            return "Invalid value '\(value)' for --\(option): \(reason)."
        }
    }
}
