import AuthAgent
import TokenVault

/// Why a use of the application failed, in the application's own terms: the libraries' errors are translated once
/// (`ApplicationError+Lower.swift`), each keeping its own error as the `Cause` for `--debug`. The command line turns
/// each case into a remedy and an exit status; the messages here say what went wrong, not what to run.
public enum ApplicationError: Error, Sendable, CustomStringConvertible {
    case configuration(ConfigError)
    /// A session of `need.profile` is needed, signed in by its flow: none is stored, or the identity provider no
    /// longer accepts the one there is (the refresh token refused, the access token revoked). The one case for it,
    /// whichever use found out; the remedy names the profile and how it signs in here (`SignInNeed`).
    case signInRequired(SignInNeed, Cause)
    /// The vault that holds the session stays locked until it is unlocked (or its passphrase is given).
    case vaultLocked(Cause, NextStep?)
    /// The identity provider could not be reached, or asked to be tried again later.
    case network(Cause, NextStep?)
    /// The provider, the store or the vault refused or failed, for a reason trying again does not change.
    case failed(Cause, NextStep?)
    /// What was asked does not fit the profile or the machine as they are (a machine profile's ID token, a redirect
    /// URI no listener can serve): the request changes, not the session.
    case invalidRequest(Cause, NextStep?)
    /// The user stopped the sign-in (Ctrl-C, or the browser's cancel).
    case cancelled(Cause)
    /// An answer a use needed could not be had.
    case answer(AnswerError)
    case signIn(SignInError)
    /// No device was named, and this machine is no remembered device of the profile.
    case notARememberedDevice(profile: String)
    /// A migrated record read back from its new backend differs from the original, which stays where it was.
    case copyDiffers(profile: String, target: VaultBackendKind, source: VaultBackendKind)
    /// A global sign-out was asked of a profile of another OpenID provider, which has no such thing: nothing changed.
    case globalSignOutWithoutUserPool(profile: String)
    /// The browser's logout page cannot be built for the profile: nothing changed.
    case noLogoutPage(Cause)
    /// A running agent did not carry out a request on its vault.
    case agentRefused(AgentRefusal)
    /// A running agent cannot open the vault a session is about to be written to: nothing was written.
    case agentStaysLocked(AgentRefusal)
    /// The record of which backend holds each `auto` profile cannot be read or written.
    case backendRecord(path: String, problem: String)
    /// An environment variable holds a value the application cannot use.
    case invalidVariable(name: String, value: String, expected: String)
    /// The memory vault was asked for where only a lasting one will do.
    case memoryVaultOutsideProcess
    /// Guest credentials were asked for a profile that is signed in: its identity in the pool is the user's.
    case signedInForGuest(profile: String)
    /// The agent answered for the session of `need.profile` (how it signs in known for a sign-in answer): that answer
    /// is final.
    case agent(SignInNeed, failure: AgentFailure)
    /// The OpenID discovery document at `url` could not be fetched or used: nothing was written.
    indirect case discovery(url: String, ApplicationError)
    /// An authorized request got no answer from its API (or was refused before it was sent: plain http off loopback).
    indirect case apiRequest(ApplicationError)
    /// A user's account was asked of a machine profile, whose app client signs in as itself: there is no user.
    case machineHasNoUser(profile: String)
    /// Several profiles list the host a helper was asked about, and nothing in the request tells them apart.
    case ambiguousHelperTarget(host: String, candidates: [String])
    /// Nobody answered on the agent socket the user named (`$AUTHVAULT_AGENT_SOCKET`, a forwarded one), and this
    /// machine has no profile to use instead.
    case agentUnreachable(path: String, reason: AgentUnreachableReason)

    public var description: String {
        switch self {
        case .configuration(let error): "\(error)"
        case .signInRequired(_, let cause), .vaultLocked(let cause, _), .network(let cause, _), .failed(let cause, _),
            .invalidRequest(let cause, _), .cancelled(let cause):
            cause.description
        case .answer(let error): "\(error)"
        case .signIn(let error): "\(error)"
        case .notARememberedDevice(let profile): "This machine is no remembered device of profile '\(profile)'."
        case .copyDiffers(let profile, let target, let source):
            "The copy of profile '\(profile)' in \(target.rawValue) does not read back the same; it stays in \(source.rawValue)."
        case .globalSignOutWithoutUserPool(let profile):
            "Profile '\(profile)' signs in at another OpenID provider, which has no global sign-out (GlobalSignOut is a Cognito user pool's)."
        case .noLogoutPage(let error): "There is no logout page to open: \(error)."
        case .agentRefused(let refusal): refusal.description
        case .agentStaysLocked(let refusal): "\(refusal.description) Nothing was written."
        case .backendRecord(let path, let problem): "The record of vault backends \(path) \(problem)."
        case .invalidVariable(let name, let value, let expected): "\(name) must be \(expected), not '\(value)'."
        case .memoryVaultOutsideProcess: "The memory vault exists only inside a process."
        case .signedInForGuest(let profile):
            "Profile '\(profile)' is signed in: its AWS credentials are the user's, not a guest's."
        case .agent(_, let failure): failure.message
        case .discovery(let url, let error): "Cannot use the discovery document at \(url): \(error)"
        case .apiRequest(let error): "The API request: \(error)"
        case .machineHasNoUser(let profile):
            "Profile '\(profile)' is a machine profile: its app client signs in as itself (client credentials), so it has no user account."
        case .ambiguousHelperTarget(let host, let candidates):
            "Profiles \(candidates.map { "'\($0)'" }.joined(separator: ", ")) all list \(host)."
        case .agentUnreachable(let path, let reason):
            "The authvault agent at \(path) could not be reached (\(reason)), and no profile is configured here to use instead."
        }
    }
}
