import AuthCrypto
import CognitoAuth
import Testing
import TokenVault

@testable import AuthStore

/// The effects the machine returns, as the store performs them while other work is in flight: a refresh held on
/// its way to "Cognito", an answer to a challenge held likewise.
extension AuthStoreTests {
    /// Whether `condition` holds within a few seconds: a store that never gets there fails the test, never hangs it.
    func eventually(_ condition: () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }

    @Test func signOutDuringARefreshLeavesNoSessionAndTellsTheWaiters() async throws {
        authority.setRefresh(.succeed(rotating: true))
        let store = try await signedInStore()
        authority.refreshGate.close()
        clock.advance(by: 3590)  // mandatory: callers wait for the refresh
        let waiter = Task { try await store.validAccessToken() }
        #expect(await eventually { await store.refreshWaiters.count == 1 && authority.refreshGate.arrivals == 1 })
        let signOut = Task { await store.signOut(global: false) }
        // The sign-out is accepted, and the waiter told, while the refresh is still on its way.
        let told = await eventually {
            let (state, waiting) = (await store.state, await store.refreshWaiters.count)
            return state == .signingOut && waiting == 0
        }
        authority.refreshGate.open()
        guard told else {
            Issue.record("the sign-out was refused, or left the waiter waiting")
            return
        }
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await waiter.value }
        let result = await signOut.value
        #expect(result.isComplete)
        #expect(authority.calls.cancelledRefreshes == 1)
        // The refresh saved its rotated token under the lock before the sign-out cleared the vault: that is the
        // one revoked, and nothing is left.
        #expect(authority.calls.revokedTokens == ["refresh-2"])
        #expect(try await vault.load(profile: "work") == nil)
        // The refresh's outcome, arriving after the sign-out, brings nothing back.
        try await Task.sleep(for: .milliseconds(100))
        #expect(await store.state == .signedOut)
        #expect(await store.recordFacts()?.hasSession != true)
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await store.validAccessToken() }
    }

    @Test func signOutWhileAChallengeWaitsDropsIt() async throws {
        authority.setChallenges([.softwareTokenMFA])
        let store = makeStore()
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        let result = await store.signOut(global: false)
        #expect(result.isComplete)
        #expect(await store.state == .signedOut)
        await #expect(throws: AuthStoreError.noPendingChallenge) {
            try await store.answer(.code(SecretBytes(utf8: "123456")))
        }
        #expect(authority.calls.respond == 0)
        #expect(try await vault.load(profile: "work") == nil)
    }

    /// The challenge goes only once the machine accepts the sign-out: one refused while an answer is on its way
    /// leaves the challenge to answer again.
    @Test func aSignOutRefusedWhileAnAnswerIsOnItsWayKeepsTheChallenge() async throws {
        let (store, wrongAnswer) = try await storeWithAnAnswerOnItsWay(code: "000000")
        let refused = await store.signOut(global: false)
        #expect(refused.remoteFailures == ["another operation is running"])
        authority.respondGate.open()
        await #expect(throws: AuthStoreError.rejected(.codeMismatch(message: "Invalid code received for user"))) {
            try await wrongAnswer.value
        }
        guard case .awaitingChallenge = await store.state else {
            Issue.record("challenge lost")
            return
        }
        guard case .signedIn = try await store.answer(.code(SecretBytes(utf8: "123456"))) else {
            Issue.record("expected a session")
            return
        }
        #expect(try await vault.load(profile: "work")?.hasSession == true)
        #expect(authority.calls.revoke == 0)
    }

    /// A store whose answer (`code`) to an MFA challenge is held on its way to "Cognito": the state is `signingIn`.
    func storeWithAnAnswerOnItsWay(code: String) async throws -> (AuthStore, Task<SignInProgress, any Error>) {
        authority.setChallenges([.softwareTokenMFA])
        let store = makeStore()
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        authority.respondGate.close()
        let answer = Task { try await store.answer(.code(SecretBytes(utf8: code))) }
        #expect(await eventually { authority.respondGate.arrivals == 1 })
        return (store, answer)
    }

    @Test func aRefreshRejectedWhileCallersWaitEndsTheSessionOnce() async throws {
        _ = try await signedInStore()
        let counting = CountingVault(vault)
        let store = makeStore(vault: counting)
        await store.bootstrap()
        authority.setRefresh(.fail(.refreshTokenRejected(message: "Refresh Token has been revoked")))
        authority.refreshGate.close()
        clock.advance(by: 3590)
        let waiters = (0..<3).map { _ in Task { try await store.validAccessToken() } }
        #expect(await eventually { await store.refreshWaiters.count == 3 && authority.refreshGate.arrivals == 1 })
        authority.refreshGate.open()
        guard await eventually({ await store.refreshWaiters.isEmpty }) else {
            Issue.record("waiters left waiting")
            return
        }
        for waiter in waiters {
            await #expect(throws: AuthStoreError.signInRequired(.refreshRejected("Refresh Token has been revoked"))) {
                try await waiter.value
            }
        }
        #expect(authority.calls.refresh == 1)
        #expect(counting.writes == 1)
        #expect(try await vault.load(profile: "work")?.hasSession == false)
        #expect(await store.recordFacts()?.hasSession == false)
        #expect(await store.refreshWaiters.isEmpty)
    }
}
