import AuthCrypto
import CognitoAuth
import Foundation
import TestSupport
import Testing
import TokenVault

@testable import AuthStore

/// A revocation that failed for a passing reason is kept (never as a session) and retried; any other answer of the
/// server's counts as done.
@Suite struct PendingRevocationStoreTests {
    let clock = TestClock()
    let directory: TemporaryDirectory
    let vault = MemoryVault()
    let authority: FakeAuthority
    static let offline = CognitoError.network(.cannotConnect("cognito-idp.example"))

    init() throws {
        directory = try TemporaryDirectory()
        authority = FakeAuthority(clock: clock)
    }

    func signedInStore() async throws -> AuthStore {
        let store = AuthStore(
            profile: "work", vault: vault, lock: ProfileLock(directory: directory.path, profile: "work"),
            authority: authority, now: clock.now)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        return store
    }

    @Test(arguments: [
        (CognitoError.network(.cannotConnect("cognito-idp.example")), RevocationVerdict.keepPending),
        (.network(.timedOut), .keepPending),
        (.network(.tlsFailure("bad certificate")), .refused),
        (.serverError(status: 503), .keepPending),
        (.tooManyRequests(message: "slow down"), .keepPending),
        (.notAuthorized(message: "Refresh Token has been revoked"), .alreadyInvalid),
        (.refreshTokenRejected(message: "invalid_grant"), .alreadyInvalid),
        (.unknownService(type: "invalid_grant", status: 400, message: ""), .alreadyInvalid),
        (.unknownService(type: "unauthorized_client", status: 400, message: ""), .refused),
    ])
    func onlyAPassingFailureKeepsItPending(error: CognitoError, verdict: RevocationVerdict) {
        #expect(RevocationVerdict(after: error) == verdict)
    }

    @Test func aRevocationThatCannotReachTheServerIsKeptWithoutTheSession() async throws {
        let store = try await signedInStore()
        authority.failRevocations([Self.offline])
        let result = await store.signOut(global: false)
        #expect(result.keptForRetry && !result.isComplete)
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(!stored.hasSession && stored.refreshToken == nil)
        #expect(stored.pendingRevocations.map(\.refreshToken) == [SecretBytes(utf8: "refresh-1")])
        #expect(await store.pendingRevocations().count == 1)
    }

    @Test func thePendingTokenIsNeverUsedToRefreshOrServe() async throws {
        let store = try await signedInStore()
        authority.failRevocations([Self.offline])
        _ = await store.signOut(global: false)
        clock.advance(by: 7200)
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await store.validAccessToken() }
        let fresh = AuthStore(
            profile: "work", vault: vault, lock: ProfileLock(directory: directory.path, profile: "work"),
            authority: authority, now: clock.now)
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await fresh.validAccessToken() }
        #expect(authority.calls.refresh == 0 && authority.calls.refreshTokensSeen.isEmpty)
    }

    @Test func theNextSignOutRetriesItAndAnAlreadyDeadTokenCountsAsDone() async throws {
        let store = try await signedInStore()
        authority.failRevocations([Self.offline])
        _ = await store.signOut(global: false)
        authority.failRevocations([.notAuthorized(message: "Invalid Refresh Token")])
        let again = await store.signOut(global: false)
        #expect(again.earlierRevocations == RevocationRetry(revoked: 1))
        #expect(again.isComplete)
        #expect(try await vault.load(profile: "work") == nil, "nothing left to keep")
    }

    @Test func aSignInRetriesItAfterSavingAndARefreshRetriesItToo() async throws {
        let store = try await signedInStore()
        authority.failRevocations([Self.offline, Self.offline])
        _ = await store.signOut(global: false)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        #expect(
            try await vault.load(profile: "work")?.pendingRevocations.count == 1,
            "a failed retry never fails the sign-in")
        #expect(try await vault.load(profile: "work")?.hasSession == true)

        clock.advance(by: 7200)
        _ = try await store.validAccessToken()
        #expect(authority.calls.refresh == 1)
        #expect(try await vault.load(profile: "work")?.pendingRevocations.isEmpty == true)
        #expect(authority.calls.revokedTokens == ["refresh-1"], "the refresh revoked the earlier session's token")
        #expect(await store.pendingRevocations().isEmpty)
    }

    @Test func forgettingDropsItWithoutRevoking() async throws {
        let store = try await signedInStore()
        authority.failRevocations([Self.offline, Self.offline])
        let result = await store.signOut(global: false, forgetPending: true)
        #expect(result.forgottenRevocations == 1 && !result.keptForRetry)
        #expect(try await vault.load(profile: "work") == nil)
        #expect(authority.calls.revokedTokens.isEmpty)
    }
}
