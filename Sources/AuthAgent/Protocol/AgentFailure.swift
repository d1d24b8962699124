import AuthStore
import TokenVault

/// What kind of failure an agent reply reports: callers branch on the code, people read the message.
public enum AgentErrorCode: String, Sendable, Equatable, CaseIterable {
    /// No usable session: the user must sign in.
    case signInRequired
    /// The profile's vault is locked or needs its passphrase.
    case vaultLocked
    /// Cognito cannot be reached and the current token is no longer usable.
    case network
    /// The request was not understood (syntax, version, operation, a missing field, a line too long).
    case badRequest
    case unknownProfile
    case `internal`
}

/// An error reply: a code, and a message that says what to do. Never carries a secret.
public struct AgentFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: AgentErrorCode
    public let message: String
    /// For a sign-in answer to the agent's own user: how the profile signs in where the agent runs.
    public let signIn: AgentSignIn?

    public init(_ code: AgentErrorCode, _ message: String, signIn: AgentSignIn? = nil) {
        self.code = code
        self.message = message
        self.signIn = signIn
    }

    public var description: String { "\(message) [\(code.rawValue)]" }

    static func badRequest(_ detail: String) -> AgentFailure {
        AgentFailure(.badRequest, "\(detail). Send one JSON object per line, such as {\"v\":1,\"op\":\"ping\"}.")
    }

    /// The store's answer for `profile`: what is wrong, not which command fixes it (the caller knows its commands).
    init(_ error: AuthStoreError, profile: String) {
        switch error {
        case .signInRequired(let reason):
            let why = reason.map { "\($0)" } ?? "not signed in"
            self.init(
                .signInRequired,
                "No usable session for profile '\(profile)' (\(why)).")
        case .vault(let vaultError):
            switch vaultError {
            case .locked, .passphraseRequired, .lockedUntilUnlocked, .wrongPassphrase:
                self.init(.vaultLocked, "The vault of profile '\(profile)' is locked: \(vaultError)")
            default:
                self.init(.internal, "The vault of profile '\(profile)' failed: \(vaultError)")
            }
        case .network:
            self.init(.network, error.description)
        case .rejected, .noPendingChallenge, .challengeExpired, .busy:
            self.init(.internal, error.description)
        case .noIDTokenForMachine:
            self.init(.badRequest, error.description)
        }
    }
}
