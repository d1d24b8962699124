/// The exit statuses scripts can rely on. Every command uses these and only these.
enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// Anything not covered below: a rejected request, a broken file, a refused operation.
    case failure = 1
    /// The command line is wrong: unknown command or option, a missing or malformed value.
    case usage = 2
    /// There is no usable session: sign in with `authvault login`.
    case signInRequired = 3
    /// The vault is locked or its passphrase is needed.
    case vaultLocked = 4
    /// Cognito or the identity provider could not be reached; nothing was changed.
    case networkUnavailable = 5
    /// `exec`: the command was found but could not be run (not executable, a bad format), as env(1) and shells say.
    case commandCannotRun = 126
    /// `exec`: no such command, as env(1) and shells say.
    case commandNotFound = 127
    /// Ctrl-C (or SIGTERM) ended a wait, such as a browser sign-in; nothing was changed.
    case cancelled = 130

    var meaning: String {
        switch self {
        case .success: return "success"
        case .failure: return "error"
        case .usage: return "usage error (unknown command or option, bad value)"
        case .signInRequired: return "sign-in required"
        case .vaultLocked: return "vault locked"
        case .networkUnavailable: return "network unavailable"
        case .commandCannotRun: return "exec: the command was found but could not be run"
        case .commandNotFound: return "exec: the command was not found"
        case .cancelled: return "cancelled (Ctrl-C)"
        }
    }
}

/// A command failed: what to tell the user and which exit status to end with.
struct CLIError: Error, Sendable, CustomStringConvertible {
    let message: String
    let status: ExitStatus
    /// The command's own output says why already (status's report): saying it again on standard error repeats it.
    let isAlreadySaid: Bool
    /// The library's error underneath by type and case, said with `--debug` only (`Cause.name`).
    var underlying: String?

    init(_ message: String, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
        isAlreadySaid = false
    }

    /// Only the exit status, for a command whose output has said why.
    init(alreadySaid message: String, status: ExitStatus) {
        self.message = message
        self.status = status
        isAlreadySaid = true
    }

    var description: String { message }
}
