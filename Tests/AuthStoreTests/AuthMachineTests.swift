import Testing
import TokenVault
@testable import AuthStore

@Suite struct AuthMachineTests {
    static let session = SessionSummary(user: "alice@example.com", accessTokenExpiresAt: 2000, idTokenExpiresAt: 2000,
                                        lastRefreshAt: nil, revision: 1)
    static let later = SessionSummary(user: "alice@example.com", accessTokenExpiresAt: 5600, idTokenExpiresAt: 5600,
                                      lastRefreshAt: 2000, revision: 2)
    static let challenge = ChallengeSummary(kind: .softwareTokenMFA, expiresAt: 180)

    /// The machine as a table: each row is state + event -> state + effects.
    static let rows: [(AuthState, AuthEvent, AuthState, [AuthEffect])] = [
        (.bootstrapping, .vaultLoaded(session), .signedIn(session), []),
        (.bootstrapping, .vaultLoaded(nil), .signedOut, []),
        (.bootstrapping, .vaultFailed(.locked("x")), .vaultUnavailable(.locked("x")), []),
        (.vaultUnavailable(.locked("x")), .vaultLoaded(session), .signedIn(session), []),
        (.signedOut, .signInStarted, .signingIn, []),
        (.signedIn(session), .signInStarted, .signingIn, []),
        (.needsSignIn(.noRefreshToken), .signInStarted, .signingIn, []),
        (.signingIn, .challengeIssued(challenge), .awaitingChallenge(challenge), []),
        (.awaitingChallenge(challenge), .challengeIssued(challenge), .awaitingChallenge(challenge), []),
        (.awaitingChallenge(challenge), .sessionEstablished(session), .signedIn(session), []),
        (.signingIn, .sessionEstablished(session), .signedIn(session), []),
        (.signingIn, .vaultLoaded(session), .signedIn(session), []),
        (.awaitingChallenge(challenge), .vaultLoaded(nil), .signedOut, []),
        (.signedIn(session), .refreshStarted, .refreshing(session), []),
        (.refreshing(session), .refreshSucceeded(later), .signedIn(later), [.resumeWaiters]),
        (.refreshing(session), .refreshFailedTransiently, .signedIn(session), [.resumeWaiters]),
        (.refreshing(session), .sessionEnded(.refreshRejected("revoked")), .needsSignIn(.refreshRejected("revoked")),
         [.clearStoredSession, .resumeWaiters]),
        (.refreshing(session), .vaultFailed(.locked("x")), .vaultUnavailable(.locked("x")), [.resumeWaiters]),
        (.signedIn(session), .signOutStarted(global: true), .signingOut, [.clearStoredSession, .revokeRemotely(global: true)]),
        (.needsSignIn(.noRefreshToken), .signOutStarted(global: false), .signingOut, [.clearStoredSession, .revokeRemotely(global: false)]),
        (.signingOut, .signOutFinished, .signedOut, []),
    ]

    @Test func everyRowOfTheTable() {
        for (state, event, expected, effects) in Self.rows {
            let transition = AuthMachine.transition(from: state, on: event)
            #expect(transition?.state == expected, "\(state) + \(event)")
            #expect(transition?.effects == effects, "\(state) + \(event)")
        }
    }

    @Test func transientRefreshFailureNeverEndsTheSession() {
        let after = AuthMachine.transition(from: .refreshing(Self.session), on: .refreshFailedTransiently)
        guard case .signedIn = after?.state else { Issue.record("session lost"); return }
        #expect(after?.effects.contains(.clearStoredSession) == false)
    }

    @Test func operationsThatDoNotFitTheStateAreRefused() {
        let refused: [(AuthState, AuthEvent)] = [
            (.signingIn, .signInStarted),
            (.refreshing(Self.session), .signInStarted),
            (.signingOut, .signInStarted),
            (.signedOut, .refreshStarted),
            (.refreshing(Self.session), .refreshStarted),
            (.signingOut, .refreshSucceeded(Self.session)),
            (.bootstrapping, .signOutFinished),
            (.signingIn, .signOutStarted(global: false)),
        ]
        for (state, event) in refused {
            #expect(AuthMachine.transition(from: state, on: event) == nil, "\(state) + \(event)")
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
