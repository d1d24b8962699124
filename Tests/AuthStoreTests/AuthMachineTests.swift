import AuthCrypto
import CognitoAuth
import Testing
import TokenVault

@testable import AuthStore

@Suite struct AuthMachineTests {
    static let session = SessionSummary(
        user: "alice@example.com", accessTokenExpiresAt: 2000, idTokenExpiresAt: 2000,
        lastRefreshAt: nil, revision: 1)
    static let later = SessionSummary(
        user: "alice@example.com", accessTokenExpiresAt: 5600, idTokenExpiresAt: 5600,
        lastRefreshAt: 2000, revision: 2)
    static let challenge = ChallengeSummary(
        AuthChallenge(
            kind: .softwareTokenMFA, session: SecretBytes(utf8: "Sess-7f3a9c"),
            expiresAt: 180, username: "alice", parameters: [:]))
    static let timeout = CognitoError.network(.timedOut)
    /// A Secret Service that took the call and answered none.
    static let silent = VaultError.timedOut(seconds: 5)

    /// The machine as a table: each row is state + event -> state + effects.
    static let rows: [(AuthState, AuthEvent, AuthState, [AuthEffect])] = [
        (.bootstrapping, .vaultLoaded(session), .signedIn(session), []),
        (.bootstrapping, .vaultLoaded(nil), .signedOut, []),
        (.bootstrapping, .vaultFailed(.locked("x")), .vaultUnavailable(.locked("x")), []),
        (.vaultUnavailable(.locked("x")), .vaultLoaded(session), .signedIn(session), []),
        // A sign-in reads a vault that did not answer again first: its answer now decides.
        (.vaultUnavailable(silent), .vaultLoaded(nil), .signedOut, []),
        (.vaultUnavailable(silent), .vaultFailed(silent), .vaultUnavailable(silent), []),
        (.signedOut, .signInStarted, .signingIn, []),
        (.signedIn(session), .signInStarted, .signingIn, []),
        (.needsSignIn(.noRefreshToken), .signInStarted, .signingIn, []),
        (.signingIn, .challengeIssued(challenge), .awaitingChallenge(challenge), []),
        (.awaitingChallenge(challenge), .challengeIssued(challenge), .awaitingChallenge(challenge), []),
        (.awaitingChallenge(challenge), .sessionEstablished(session), .signedIn(session), []),
        (.signingIn, .sessionEstablished(session), .signedIn(session), []),
        (.signingIn, .vaultLoaded(session), .signedIn(session), []),
        (.awaitingChallenge(challenge), .vaultLoaded(nil), .signedOut, []),
        (.signedIn(session), .refreshStarted, .refreshing(session), [.startRefresh]),
        (.refreshing(session), .refreshSucceeded(later), .signedIn(later), [.resumeWaiters]),
        (
            .refreshing(session), .refreshFailedTransiently(timeout, at: 1990),
            .signedIn(session.afterFailedRefresh(timeout, at: 1990)),
            [.resumeWaiters]
        ),
        // The refresh has already recorded the end in the vault, under the lock: nothing clears it twice.
        (
            .refreshing(session), .sessionEnded(.refreshRejected("revoked")), .needsSignIn(.refreshRejected("revoked")),
            [.resumeWaiters]
        ),
        (.refreshing(session), .vaultFailed(.locked("x")), .vaultUnavailable(.locked("x")), [.resumeWaiters]),
        (
            .signedIn(session), .signOutStarted(global: true), .signingOut,
            [.clearStoredSession, .revokeRemotely(global: true)]
        ),
        (
            .refreshing(session), .signOutStarted(global: false), .signingOut,
            [.cancelRefresh, .resumeWaiters, .clearStoredSession, .revokeRemotely(global: false)]
        ),
        (
            .awaitingChallenge(challenge), .signOutStarted(global: false), .signingOut,
            [.clearStoredSession, .revokeRemotely(global: false)]
        ),
        (
            .needsSignIn(.noRefreshToken), .signOutStarted(global: false), .signingOut,
            [.clearStoredSession, .revokeRemotely(global: false)]
        ),
        (.signingOut, .signOutFinished, .signedOut, []),
        // AWS credentials saved with the record change no state, and need no session (a guest's).
        (.signedIn(session), .awsCredentialsSaved, .signedIn(session), []),
        (.refreshing(session), .awsCredentialsSaved, .refreshing(session), []),
        (.signedOut, .awsCredentialsSaved, .signedOut, []),
        (.needsSignIn(.noRefreshToken), .awsCredentialsSaved, .needsSignIn(.noRefreshToken), []),
        // The client secret outlives sessions: saving it changes no state, with a session or without.
        (.signedIn(session), .clientSecretSaved, .signedIn(session), []),
        (.refreshing(session), .clientSecretSaved, .refreshing(session), []),
        (.signedOut, .clientSecretSaved, .signedOut, []),
        (.vaultUnavailable(.locked("x")), .clientSecretSaved, .vaultUnavailable(.locked("x")), []),
    ]

    @Test func everyRowOfTheTable() {
        for (state, event, expected, effects) in Self.rows {
            let transition = AuthMachine.transition(from: state, on: event)
            #expect(transition?.state == expected, "\(state) + \(event)")
            #expect(transition?.effects == effects, "\(state) + \(event)")
        }
    }

    /// The pending challenge travels in the state, Cognito's `Session` (a bearer credential) with it: no
    /// description of the state shows it.
    @Test func theChallengeSessionInTheStateIsNeverPrinted() {
        let state = AuthState.awaitingChallenge(Self.challenge)
        for text in [
            "\(state)", String(reflecting: state), "\(Self.challenge)", String(reflecting: Self.challenge),
            "\(AuthEvent.challengeIssued(Self.challenge))",
        ] {
            #expect(!text.contains("7f3a9c"), "\(text)")
        }
    }

    @Test func transientRefreshFailureNeverEndsTheSession() {
        let after = AuthMachine.transition(
            from: .refreshing(Self.session), on: .refreshFailedTransiently(Self.timeout, at: 1990))
        guard case .signedIn = after?.state else {
            Issue.record("session lost")
            return
        }
        #expect(after?.effects.contains(.clearStoredSession) == false)
    }

    /// The throttle lives in the state: failures in a row are counted, and a success or a new session starts over.
    @Test func refreshFailuresAreCountedInTheStateUntilASuccess() {
        var state = AuthState.signedIn(Self.session)
        for moment in [1990.0, 1995] {
            state = AuthMachine.transition(from: state, on: .refreshStarted)!.state
            state = AuthMachine.transition(from: state, on: .refreshFailedTransiently(Self.timeout, at: moment))!.state
        }
        guard case .signedIn(let failing) = state else {
            Issue.record("session lost")
            return
        }
        #expect(failing.refreshFailures == RefreshFailures(consecutive: 2, lastFailedAt: 1995, lastError: Self.timeout))
        #expect(failing.refreshFailures?.nextAttemptAt(RefreshPolicy()) == 1997)
        state = AuthMachine.transition(from: state, on: .refreshStarted)!.state
        #expect(AuthMachine.transition(from: state, on: .refreshSucceeded(Self.later))?.state == .signedIn(Self.later))
    }

    /// Callers wait for a refresh until an effect resumes them: no way out of `refreshing` may forget them.
    @Test func everyWayOutOfARefreshResumesItsWaiters() {
        let events: [AuthEvent] = [
            .vaultLoaded(Self.later), .vaultLoaded(nil), .vaultLoadedEndedSession(.signedOutElsewhere),
            .vaultFailed(.locked("x")), .signInStarted, .challengeIssued(Self.challenge),
            .sessionEstablished(Self.later),
            .refreshStarted, .refreshSucceeded(Self.later), .refreshFailedTransiently(Self.timeout, at: 1990),
            .sessionEnded(.noRefreshToken), .signOutStarted(global: true), .signOutFinished,
        ]
        for event in events {
            guard let transition = AuthMachine.transition(from: .refreshing(Self.session), on: event) else { continue }
            #expect(transition.effects.contains(.resumeWaiters), "refreshing + \(event)")
        }
    }

    /// A refresh starts only on `refreshStarted` from a session, and only a sign-out stops one.
    @Test func onlyTheRefreshRowsStartOrStopARefresh() {
        let states: [AuthState] = [
            .bootstrapping, .signedOut, .signingIn, .awaitingChallenge(Self.challenge),
            .signedIn(Self.session), .refreshing(Self.session), .needsSignIn(.noRefreshToken),
            .vaultUnavailable(.locked("x")), .signingOut,
        ]
        let events: [AuthEvent] = [
            .vaultLoaded(Self.later), .vaultFailed(.locked("x")), .signInStarted, .sessionEstablished(Self.later),
            .refreshStarted, .refreshSucceeded(Self.later), .refreshFailedTransiently(Self.timeout, at: 1990),
            .sessionEnded(.noRefreshToken), .signOutStarted(global: false), .signOutFinished,
        ]
        for state in states {
            for event in events {
                let effects = AuthMachine.transition(from: state, on: event)?.effects ?? []
                if effects.contains(.startRefresh) {
                    #expect(event == .refreshStarted && state == .signedIn(Self.session))
                }
                if effects.contains(.cancelRefresh) {
                    #expect(event == .signOutStarted(global: false) && state == .refreshing(Self.session))
                }
                // Local state first: the vault is cleared before any remote call.
                if let revoke = effects.firstIndex(of: .revokeRemotely(global: false)) {
                    #expect(effects.firstIndex(of: .clearStoredSession).map { $0 < revoke } == true)
                }
            }
        }
    }

    @Test func operationsThatDoNotFitTheStateAreRefused() {
        let refused: [(AuthState, AuthEvent)] = [
            (.signingIn, .signInStarted),
            (.refreshing(Self.session), .signInStarted),
            (.vaultUnavailable(Self.silent), .signInStarted),
            (.bootstrapping, .signInStarted),
            (.signingOut, .signInStarted),
            (.signedOut, .refreshStarted),
            (.refreshing(Self.session), .refreshStarted),
            (.signingOut, .refreshSucceeded(Self.session)),
            (.bootstrapping, .signOutFinished),
            (.signingIn, .signOutStarted(global: false)),
            (.signingOut, .signOutStarted(global: false)),
            // A refresh that ends after a sign-out or a new sign-in brings back nothing.
            (.signedOut, .refreshSucceeded(Self.later)),
            (.signedIn(Self.later), .refreshSucceeded(Self.session)),
            (.signingOut, .sessionEnded(.signedOutElsewhere)),
            (.signedOut, .refreshFailedTransiently(Self.timeout, at: 1990)),
            // Credentials fetched while a sign-out or sign-in runs are not kept in memory: the vault decides.
            (.signingOut, .awsCredentialsSaved),
            (.signingIn, .awsCredentialsSaved),
            // Nor a client secret saved from a record read before theirs was written.
            (.signingOut, .clientSecretSaved),
            (.signingIn, .clientSecretSaved),
            (.awaitingChallenge(Self.challenge), .clientSecretSaved),
        ]
        for (state, event) in refused {
            #expect(AuthMachine.transition(from: state, on: event) == nil, "\(state) + \(event)")
        }
    }
}

extension AuthMachineTests {
    /// Why a sign-in is refused, as its caller is told: each row is state -> error.
    static let refusals: [(AuthState, AuthStoreError)] = [
        // The vault did not answer (or is locked): its reason, never "another sign-in is in progress".
        (.vaultUnavailable(silent), .vault(silent)),
        (.vaultUnavailable(.locked("default")), .vault(.locked("default"))),
        (.vaultUnavailable(.unavailable("no bus")), .vault(.unavailable("no bus"))),
        // Another operation in flight: busy.
        (.signingIn, .busy("sign-in, refresh or sign-out")),
        (.refreshing(session), .busy("sign-in, refresh or sign-out")),
        (.signingOut, .busy("sign-in, refresh or sign-out")),
    ]

    @Test func aRefusedSignInSaysWhyInTheCallersTerms() {
        for (state, expected) in Self.refusals {
            #expect(AuthMachine.transition(from: state, on: .signInStarted) == nil, "\(state)")
            #expect(AuthMachine.refusal(of: state, running: "sign-in, refresh or sign-out") == expected, "\(state)")
        }
    }

    /// `bootstrapping` is left by the first read of the vault, whatever it answers, and never entered again: a sign-in,
    /// which reads the vault first, never meets it.
    @Test func noEventLeadsBackToBootstrapping() {
        let states: [AuthState] = [
            .bootstrapping, .signedOut, .signingIn, .awaitingChallenge(Self.challenge), .signedIn(Self.session),
            .refreshing(Self.session), .needsSignIn(.noRefreshToken), .vaultUnavailable(Self.silent), .signingOut,
        ]
        let events: [AuthEvent] = [
            .vaultLoaded(Self.later), .vaultLoaded(nil), .vaultLoadedEndedSession(.signedOutElsewhere),
            .vaultFailed(Self.silent), .signInStarted, .challengeIssued(Self.challenge),
            .sessionEstablished(Self.later), .refreshStarted, .refreshSucceeded(Self.later),
            .refreshFailedTransiently(Self.timeout, at: 1990), .sessionEnded(.noRefreshToken),
            .signOutStarted(global: false), .signOutFinished, .awsCredentialsSaved, .deviceForgotten,
            .clientSecretSaved,
        ]
        for state in states {
            for event in events {
                #expect(AuthMachine.transition(from: state, on: event)?.state != .bootstrapping, "\(state) + \(event)")
            }
        }
        for event in [AuthEvent.vaultLoaded(nil), .vaultLoaded(Self.later), .vaultFailed(Self.silent)] {
            #expect(
                AuthMachine.transition(from: .bootstrapping, on: event) != nil, "the first read leaves it: \(event)")
        }
    }
}

@Suite struct RefreshPolicyTests {
    let policy = RefreshPolicy()

    @Test func windowsForAnHourLongToken() {
        // An hour: advisory from 5 minutes before expiry, mandatory from 60 s before.
        #expect(policy.window(issuedAt: 0, expiresAt: 3600, now: 0) == .fresh)
        #expect(policy.window(issuedAt: 0, expiresAt: 3600, now: 3299) == .fresh)
        #expect(policy.window(issuedAt: 0, expiresAt: 3600, now: 3301) == .advisory)
        #expect(policy.window(issuedAt: 0, expiresAt: 3600, now: 3539) == .advisory)
        #expect(policy.window(issuedAt: 0, expiresAt: 3600, now: 3541) == .mandatory)
        #expect(policy.window(issuedAt: 0, expiresAt: 3600, now: 4000) == .mandatory)
    }

    @Test func shortLivedTokensUseFractionsOfTheirLifetime() {
        // Five minutes (Cognito's minimum): advisory at a fifth (60 s), mandatory at a tenth (30 s).
        #expect(policy.window(issuedAt: 0, expiresAt: 300, now: 239) == .fresh)
        #expect(policy.window(issuedAt: 0, expiresAt: 300, now: 241) == .advisory)
        #expect(policy.window(issuedAt: 0, expiresAt: 300, now: 271) == .mandatory)
    }

    @Test(arguments: [1.0, 60, 300, 3600, 86_400])
    func aFreshTokenIsInNeitherWindow(lifetime: Double) {
        #expect(policy.window(issuedAt: 100, expiresAt: 100 + lifetime, now: 100) == .fresh)
    }

    @Test func retryDelaysDoubleUpToTheCap() {
        #expect(policy.retryDelay(afterFailures: 0) == 0)
        #expect(policy.retryDelay(afterFailures: 1) == 1)
        #expect(policy.retryDelay(afterFailures: 2) == 2)
        #expect(policy.retryDelay(afterFailures: 5) == 16)
        #expect(policy.retryDelay(afterFailures: 10) == 30)
    }
}
