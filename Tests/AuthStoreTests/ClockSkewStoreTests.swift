import AuthCrypto
import CognitoAuth
import TestSupport
import Testing
import TokenVault

@testable import AuthStore

/// A machine whose clock is ten minutes off the provider's: the store times tokens by the provider's clock, so it
/// neither refreshes on every call (ahead) nor serves a token the provider considers expired (behind), and the
/// offset it learned goes with the session to the next process.
@Suite struct ClockSkewStoreTests {
    /// The provider's clock, which issues and times the tokens.
    let provider = TestClock()
    let directory: TemporaryDirectory
    let vault = MemoryVault()
    let authority: FakeAuthority

    init() throws {
        directory = try TemporaryDirectory()
        // Ten-minute tokens: a clock ten minutes ahead sees every one of them expired as it arrives.
        authority = FakeAuthority(clock: provider, lifetime: 600)
    }

    func text(_ secret: SecretBytes) -> String { secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// A store on a machine whose clock reads `skew` seconds more than the provider's.
    func makeStore(skew: Double, vault: (any VaultBackend)? = nil) -> AuthStore {
        let local: @Sendable () -> Double = { [provider] in provider.reading + skew }
        return AuthStore(
            profile: "work", vault: vault ?? self.vault, lock: ProfileLock(directory: directory.path, profile: "work"),
            authority: authority, now: local, clock: ServerClock(local: local))
    }

    /// Signs in, the provider's answer teaching the store's clock as `ClockLearningTransport` does.
    func signIn(_ store: AuthStore) async throws {
        store.clock.learn(serverTime: provider.reading)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
    }

    @Test func aClockTenMinutesAheadDoesNotRefreshOnEveryCall() async throws {
        let store = makeStore(skew: 600)
        try await signIn(store)
        let first = try await store.validAccessToken()
        #expect(try await store.validAccessToken() == first)
        #expect(authority.calls.refresh == 0)
        #expect(try await vault.load(profile: "work")?.clockOffset == -600)

        // Timed by the local clock instead, each call would find the token expired and refresh.
        let untaught = makeStore(skew: 600, vault: MemoryVault())
        _ = try await untaught.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        _ = try await untaught.validAccessToken()
        _ = try await untaught.validAccessToken()
        #expect(authority.calls.refresh == 2)
    }

    @Test func aClockTenMinutesBehindRefreshesWhenTheProviderSaysTheTokenIsDue() async throws {
        let store = makeStore(skew: -600)
        try await signIn(store)
        provider.advance(by: 590)  // ten seconds left by the provider's clock; ten minutes by the local one
        let stale = try #require(try await vault.load(profile: "work")?.accessToken)
        expectSecret(text(try await store.validAccessToken()), differsFrom: text(stale))
        #expect(authority.calls.refresh == 1)
    }

    /// `freshToken`, which a server such as the agent answers most requests with, times tokens as the store does.
    @Test func freshTokensAreTimedByTheProvidersClock() async throws {
        let ahead = makeStore(skew: 600)
        try await signIn(ahead)
        #expect(ahead.freshToken(.access) != nil, "by the local clock the token has just expired")

        let behind = makeStore(skew: -600, vault: MemoryVault())
        try await signIn(behind)
        provider.advance(by: 490)  // 110 s left by the provider's clock (its advisory window), 710 s by the local one
        #expect(behind.freshToken(.access) == nil)
    }

    /// A clock that agrees with the provider's, taught by a `Date` that reads 0.9 s behind (whole seconds): the
    /// token is in its mandatory window by both clocks, so the caller gets a refreshed one, not the old one as if
    /// the noise left it 0.9 s more.
    @Test func anOffsetWithinTheMeasurementsNoiseDoesNotDelayARefresh() async throws {
        let store = makeStore(skew: 0)
        store.clock.learn(serverTime: provider.reading - 0.9)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        provider.advance(by: 540.5)  // 59.5 s left of 600: the last tenth (60 s) is the mandatory window
        let stale = try #require(try await vault.load(profile: "work")?.accessToken)
        expectSecret(text(try await store.validAccessToken()), differsFrom: text(stale))
        #expect(authority.calls.refresh == 1)
    }

    @Test func theNextProcessTimesTokensByTheOffsetKeptWithTheSession() async throws {
        try await signIn(makeStore(skew: 600))
        let next = makeStore(skew: 600)
        _ = try await next.validAccessToken()
        _ = try await next.validAccessToken()
        #expect(authority.calls.refresh == 0)
        #expect(next.clock.offset == -600)
    }

    /// An answer that puts the provider's clock two hours off is not adopted: the tokens are timed by this
    /// machine's clock, and the refused offset goes with the session, for `status` to report in the next process.
    @Test func anOffsetOfTwoHoursIsNotAdoptedButKeptToBeReported() async throws {
        let store = makeStore(skew: 0)
        store.clock.learn(serverTime: provider.reading + 7200)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        let record = try #require(try await vault.load(profile: "work"))
        #expect(record.clockOffset == nil)
        #expect(record.refusedClockOffset == 7200)
        _ = try await store.validAccessToken()
        #expect(authority.calls.refresh == 0, "timed by this machine's clock, which agrees with the provider's")

        let next = makeStore(skew: 0)
        _ = try await next.validAccessToken()
        #expect(next.clock.offset == nil && next.clock.refusedOffset == 7200)
    }

    @Test func aRefreshKeepsTheOffsetMeasuredWithIt() async throws {
        let store = makeStore(skew: -600)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        #expect(try await vault.load(profile: "work")?.clockOffset == nil)
        store.clock.learn(serverTime: provider.reading)
        try await store.refreshNow()
        #expect(try await vault.load(profile: "work")?.clockOffset == 600)
    }
}
