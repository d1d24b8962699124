import CognitoAuth
import TokenVault

/// What happened, as the store tells the machine.
public enum AuthEvent: Sendable, Equatable {
    case vaultLoaded(SessionSummary?)
    /// The vault holds no session, and says why the last one ended.
    case vaultLoadedEndedSession(SignInReason)
    case vaultFailed(VaultError)
    case signInStarted
    case challengeIssued(ChallengeSummary)
    /// A session was verified and persisted (by sign-in, or adopted from another process).
    case sessionEstablished(SessionSummary)
    case refreshStarted
    case refreshSucceeded(SessionSummary)
    /// Network trouble, a timeout, a 5xx, throttling: the session stays, and the failure counts for the throttle.
    case refreshFailedTransiently(CognitoError, at: Double)
    /// The refresh found the session gone, and has already recorded why in the vault, under the profile lock.
    case sessionEnded(SignInReason)
    case signOutStarted(global: Bool)
    case signOutFinished
    /// AWS credentials (or the identity id) were saved with the record, under the profile lock.
    case awsCredentialsSaved
    /// The remembered device was dropped from the record, under the profile lock.
    case deviceForgotten
    /// The app client's secret was saved in (or removed from) the record, under the profile lock.
    case clientSecretSaved
}

/// What the store must do because of a transition. The store performs each one, in order, and does nothing else.
public enum AuthEffect: Sendable, Equatable {
    /// Refresh under the profile lock (re-reading the vault first); the outcome comes back as an event.
    case startRefresh
    /// Stop the refresh in flight. Whatever it still brings back, the state it finds refuses.
    case cancelRefresh
    /// Resume the callers waiting for the refresh: they read the outcome from the new state.
    case resumeWaiters
    /// Remove the tokens from the vault (keeping the client secret): every process sees the session is gone.
    case clearStoredSession
    /// Revoke the refresh token and, with `global`, sign out everywhere. Done after the local state is cleared.
    case revokeRemotely(global: Bool)
}

/// The profile's state machine as one pure function, readable as a table:
/// `state + event -> state + effects`. A pair not listed is refused (`nil`): the state stays, and nothing is done.
public enum AuthMachine {
    public struct Transition: Sendable, Equatable {
        public let state: AuthState
        public let effects: [AuthEffect]

        init(_ state: AuthState, _ effects: [AuthEffect] = []) {
            self.state = state
            self.effects = effects
        }
    }

    public static func transition(from state: AuthState, on event: AuthEvent) -> Transition? {
        switch (state, event) {
        // Bootstrap: the vault decides where we start; a vault we cannot read keeps whatever it holds.
        case (.bootstrapping, .vaultLoaded(let session?)),
            (.vaultUnavailable, .vaultLoaded(let session?)):
            return Transition(.signedIn(session))
        case (.bootstrapping, .vaultLoaded(nil)),
            (.vaultUnavailable, .vaultLoaded(nil)):
            return Transition(.signedOut)
        case (.bootstrapping, .vaultLoadedEndedSession(let reason)),
            (.vaultUnavailable, .vaultLoadedEndedSession(let reason)),
            (.signingIn, .vaultLoadedEndedSession(let reason)),
            (.awaitingChallenge, .vaultLoadedEndedSession(let reason)):
            return Transition(.needsSignIn(reason))
        case (.bootstrapping, .vaultFailed(let error)),
            (.vaultUnavailable, .vaultFailed(let error)):
            return Transition(.vaultUnavailable(error))

        // Sign-in, from any state in which no other operation is running. Answering a challenge is a sign-in step
        // too: the challenge goes back into the state if the answer is refused.
        case (.signedOut, .signInStarted), (.signedIn, .signInStarted), (.needsSignIn, .signInStarted),
            (.awaitingChallenge, .signInStarted):
            return Transition(.signingIn)
        case (.signingIn, .challengeIssued(let challenge)), (.awaitingChallenge, .challengeIssued(let challenge)):
            return Transition(.awaitingChallenge(challenge))
        // A sign-in that ends without a session goes back to what the vault holds.
        case (.signingIn, .vaultLoaded(let session?)), (.awaitingChallenge, .vaultLoaded(let session?)):
            return Transition(.signedIn(session))
        case (.signingIn, .vaultLoaded(nil)), (.awaitingChallenge, .vaultLoaded(nil)):
            return Transition(.signedOut)
        case (.signingIn, .vaultFailed(let error)), (.awaitingChallenge, .vaultFailed(let error)):
            return Transition(.vaultUnavailable(error))
        case (.signingIn, .sessionEstablished(let session)), (.awaitingChallenge, .sessionEstablished(let session)),
            (.signedOut, .sessionEstablished(let session)), (.needsSignIn, .sessionEstablished(let session)):
            return Transition(.signedIn(session))

        // Refresh: one at a time; transient trouble keeps the session; only a rejection ends it. Every way out of
        // `refreshing` resumes the callers waiting for it.
        case (.signedIn(let session), .refreshStarted):
            return Transition(.refreshing(session), [.startRefresh])
        case (.refreshing, .refreshSucceeded(let session)), (.refreshing, .sessionEstablished(let session)):
            return Transition(.signedIn(session), [.resumeWaiters])
        case (.refreshing(let session), .refreshFailedTransiently(let error, let moment)):
            return Transition(.signedIn(session.afterFailedRefresh(error, at: moment)), [.resumeWaiters])
        case (.refreshing, .sessionEnded(let reason)):
            return Transition(.needsSignIn(reason), [.resumeWaiters])
        case (.refreshing, .vaultFailed(let error)):
            return Transition(.vaultUnavailable(error), [.resumeWaiters])

        // Sign-out: local state first, then the remote calls. A refresh in flight is stopped and its waiters told
        // that the session is gone; whatever it still saves is under the profile lock, so the clearing sees it.
        case (.refreshing, .signOutStarted(let global)):
            return Transition(
                .signingOut, [.cancelRefresh, .resumeWaiters, .clearStoredSession, .revokeRemotely(global: global)])
        case (.signedIn, .signOutStarted(let global)), (.needsSignIn, .signOutStarted(let global)),
            (.signedOut, .signOutStarted(let global)), (.awaitingChallenge, .signOutStarted(let global)),
            (.vaultUnavailable, .signOutStarted(let global)):
            return Transition(.signingOut, [.clearStoredSession, .revokeRemotely(global: global)])
        case (.signingOut, .signOutFinished):
            return Transition(.signedOut)

        // AWS credentials are kept with the record and change nothing else; a guest's need no session. Saved
        // under the profile lock, so a sign-out or a refresh in any process sees them in order.
        case (.signedIn, .awsCredentialsSaved), (.refreshing, .awsCredentialsSaved), (.signedOut, .awsCredentialsSaved),
            (.needsSignIn, .awsCredentialsSaved):
            return Transition(state)
        // The machine's remembered device outlives sessions: dropping it changes no state. During a sign-in it is
        // the sign-in's own doing (Cognito no longer knew the device).
        case (.signedIn, .deviceForgotten), (.refreshing, .deviceForgotten), (.signedOut, .deviceForgotten),
            (.needsSignIn, .deviceForgotten), (.signingIn, .deviceForgotten):
            return Transition(state)
        // The app client's secret outlives sessions too. Not during a sign-in or sign-out: the record it brings may
        // have been read before theirs was written, and would bring back what they replaced.
        case (.signedIn, .clientSecretSaved), (.refreshing, .clientSecretSaved), (.signedOut, .clientSecretSaved),
            (.needsSignIn, .clientSecretSaved), (.vaultUnavailable, .clientSecretSaved):
            return Transition(state)

        default:
            return nil
        }
    }

    /// Why `state` refuses a sign-in the store starts for a caller (`signInStarted`: a user's, or a machine token's
    /// fetch), in the caller's terms. A vault that could not be read says so, with its reason: the start read the
    /// vault again first (`AuthStore.bootstrap()`), so that is its answer now, and nothing else is running. Any other
    /// refusal means another operation of the profile is in flight: `busy`, naming what `running` may be.
    /// `bootstrapping` never meets a start, which reads the vault first, and no event leads back to it.
    static func refusal(of state: AuthState, running: String) -> AuthStoreError {
        guard case .vaultUnavailable(let error) = state else { return .busy(running) }
        return .vault(error)
    }
}
