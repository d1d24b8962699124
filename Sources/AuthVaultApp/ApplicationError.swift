import AuthAgent
import AuthStore
import CognitoAuth
import TokenVault

/// Why a use of the application failed, as a reason: the libraries' own errors, and what the application adds. The
/// command line turns each into a remedy and an exit status; the messages here say what went wrong, not what to run.
public enum ApplicationError: Error, Sendable, CustomStringConvertible {
    case configuration(ConfigError)
    case store(AuthStoreError)
    case cognito(CognitoError)
    case vault(VaultError)
    /// The record of which backend holds each `auto` profile cannot be read or written.
    case backendRecord(path: String, problem: String)
    /// An environment variable holds a value the application cannot use.
    case invalidVariable(name: String, value: String, expected: String)
    /// The memory vault was asked for where only a lasting one will do.
    case memoryVaultOutsideProcess
    /// No session a tool can be given a token from, without asking anyone to sign in.
    case noUsableSession(profile: String, reason: String)
    /// Guest credentials were asked for a profile that is signed in: its identity in the pool is the user's.
    case signedInForGuest(profile: String)
    /// The agent answered for the session: that answer is final.
    case agent(profile: String, failure: AgentFailure)

    public var description: String {
        switch self {
        case .configuration(let error): "\(error)"
        case .store(let error): "\(error)"
        case .cognito(let error): "\(error)"
        case .vault(let error): "\(error)"
        case .backendRecord(let path, let problem): "The record of vault backends \(path) \(problem)."
        case .invalidVariable(let name, let value, let expected): "\(name) must be \(expected), not '\(value)'."
        case .memoryVaultOutsideProcess: "The memory vault exists only inside a process."
        case .noUsableSession(let profile, let reason): "No usable session for profile '\(profile)' (\(reason))."
        case .signedInForGuest(let profile): "Profile '\(profile)' is signed in: its AWS credentials are the user's, not a guest's."
        case .agent(_, let failure): failure.message
        }
    }
}
