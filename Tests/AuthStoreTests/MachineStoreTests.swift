import AuthCrypto
import CognitoAuth
import Foundation
import TestSupport
import Testing
import TokenVault
import TokenVerification

@testable import AuthStore

/// A machine profile's store (the client-credentials grant): no sign-in, a token fetched when there is none or it
/// nears expiry under the refresh policy, one fetch for concurrent callers, a refused fetch said as such, a
/// passing failure served around while the token lasts, sign-out forgetting the token but not the client secret.
@Suite struct MachineStoreTests {
    let bench: AuthStoreTests
    let machine: FakeMachine
    var clock: TestClock { bench.clock }
    var vault: MemoryVault { bench.vault }

    init() throws {
        bench = try AuthStoreTests()
        machine = FakeMachine(clock: bench.clock)
    }

    func makeStore(inBackground: Bool = false) -> AuthStore {
        AuthStore(
            profile: "work", vault: vault, lock: ProfileLock(directory: bench.directory.path, profile: "work"),
            authority: bench.authority, machine: machine, refreshesInBackground: inBackground, now: clock.now)
    }

    /// The `jti` marker of a fake token.
    func marker(_ token: SecretBytes) -> String? {
        Claims(unverifiedPayloadOf: token)?["jti"]?.string
    }

    @Test func theFirstTokenIsFetchedWithoutSignInAndThenServedFromTheVault() async throws {
        let store = makeStore()
        #expect(marker(try await store.validAccessToken()) == "machine-1")
        #expect(marker(try await store.validAccessToken()) == "machine-1")
        #expect(machine.fetches == 1)
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(
            stored.origin == .clientCredentials && stored.identity?.username == "ci-client"
                && stored.refreshToken == nil)
        guard case .signedIn(let session) = await store.state else {
            Issue.record("not signed in")
            return
        }
        #expect(session.user == "ci-client")
        // Another process's store reads the cached token.
        #expect(marker(try await makeStore().validAccessToken()) == "machine-1")
        #expect(machine.fetches == 1)
        #expect(bench.authority.calls.refresh == 0 && bench.authority.calls.signIn == 0)
    }

    /// Advisory window: a short-lived process fetches before answering; the agent answers at once and fetches
    /// behind. Mandatory window: everyone waits for the new token.
    @Test func nearExpiryANewTokenIsFetched() async throws {
        let store = makeStore()
        _ = try await store.validAccessToken()
        clock.advance(by: 3600 - 200)  // advisory: 200 s left of 3600
        #expect(marker(try await store.validAccessToken()) == "machine-2")

        let agent = makeStore(inBackground: true)
        clock.advance(by: 3600 - 200)
        #expect(marker(try await agent.validAccessToken()) == "machine-2", "the current token, at once")
        while await agent.record?.accessToken.flatMap(marker) != "machine-3" {
            try await Task.sleep(for: .milliseconds(5))
        }
        clock.advance(by: 3600 - 30)  // mandatory: 30 s left
        #expect(marker(try await agent.validAccessToken()) == "machine-4")
    }

    @Test func concurrentCallersShareOneFetch() async throws {
        machine.gate.close()
        let store = makeStore()
        let other = makeStore()
        async let first = store.validAccessToken()
        async let second = store.validAccessToken()
        async let third = other.validAccessToken()
        while machine.gate.arrivals < 1 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        machine.gate.open()
        let tokens = try await [first, second, third].map(marker)
        #expect(tokens == ["machine-1", "machine-1", "machine-1"])
        #expect(machine.fetches == 1, "the other store found the token under the lock")
    }

    @Test func aRefusedFetchIsARejectionAndLeavesNothingBehind() async throws {
        let refusal = CognitoError.clientCredentialsRefused(.invalidClient, message: "")
        machine.fail(with: refusal)
        let store = makeStore()
        await #expect(throws: AuthStoreError.rejected(refusal)) { try await store.validAccessToken() }
        #expect(await store.state == .signedOut)
        #expect(try await vault.load(profile: "work") == nil)
    }

    /// A passing failure (the network) serves the cached token while it lasts, and says so once it has expired.
    @Test func aPassingFailureServesTheTokenWhileItLasts() async throws {
        let store = makeStore()
        _ = try await store.validAccessToken()
        let outage = CognitoError.network(.connectionLost("reset"))
        machine.fail(with: outage)
        clock.advance(by: 3600 - 30)
        #expect(marker(try await store.validAccessToken()) == "machine-1")
        #expect(store.lastRefreshFailure()?.message == outage.description, "status can tell")
        #expect(marker(try await makeStore().validAccessToken()) == "machine-1")
        #expect(machine.fetches == 2, "within the retry delay no process tries again")
        clock.advance(by: 60)
        await #expect(throws: AuthStoreError.network(outage)) { try await store.validAccessToken() }
        #expect(machine.fetches == 3, "an expired token is fetched again at once")
        machine.fail(with: nil)
        #expect(marker(try await store.validAccessToken()) == "machine-4")
        #expect(store.lastRefreshFailure() == nil)
    }

    @Test func signOutForgetsTheTokenButKeepsTheClientSecretAndRefreshNowFetches() async throws {
        var record = CredentialRecord(profile: "work")
        record.clientSecret = SecretBytes(utf8: "the client secret")
        try await vault.save(record)
        let store = makeStore()
        _ = try await store.validAccessToken()
        let result = await store.signOut(global: false)
        #expect(result.isComplete && result.revoked == nil)
        let kept = try #require(try await vault.load(profile: "work"))
        #expect(kept.accessToken == nil && kept.clientSecret == SecretBytes(utf8: "the client secret"))
        let summary = try await store.refreshNow()
        #expect(summary.user == "ci-client" && machine.fetches == 2)
        await #expect(throws: AuthStoreError.self) { try await store.validIDToken() }
    }
}
