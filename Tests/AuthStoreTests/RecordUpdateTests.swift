import AuthCrypto
import CognitoAuth
import SystemPlumbing
import TestSupport
import Testing
import TokenVault

@testable import AuthStore

/// Every change of what a profile holds goes through the store's one record update: under the profile lock, the
/// vault read again, one write, the revision one higher, the store's memory following and its observers told; a
/// change that changes nothing writes nothing; and a change made by another store (another process) on the same
/// vault is never lost.
@Suite struct RecordUpdateTests {
    static let provider = "cognito-idp.us-east-1.amazonaws.com/us-east-1_Pool1"
    /// The store tests' clock, vault, lock directory and scripted authority.
    let bench: AuthStoreTests
    let counting: CountingVault
    let pool: FakeIdentityPool

    init() throws {
        bench = try AuthStoreTests()
        counting = CountingVault(bench.vault)
        pool = FakeIdentityPool(clock: bench.clock)
    }

    /// A store as one process has it; several on the same vault and lock directory are several processes.
    func makeStore(machine: (any MachineAuthority)? = nil) -> AuthStore {
        AuthStore(
            profile: "work", vault: counting, lock: ProfileLock(directory: bench.directory.path, profile: "work"),
            authority: bench.authority, machine: machine, refreshesInBackground: false,
            devicePolicy: DevicePolicy(name: "build-host", remember: false), now: bench.clock.now)
    }

    func signIn(_ store: AuthStore) async throws {
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
    }

    var stored: CredentialRecord? {
        get async throws { try await bench.vault.load(profile: "work") }
    }

    func text(_ secret: SecretBytes?) -> String? { secret?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// Counts what the store tells its observers.
    final class Observer: Sendable {
        private let told = Locked(0)
        private let listening: Task<Void, Never>

        init(_ store: AuthStore) async {
            let states = await store.states()
            let told = told
            listening = Task { for await _ in states { told.withLock { $0 += 1 } } }
        }

        var count: Int { told.withLock { $0 } }
        deinit { listening.cancel() }
    }

    /// Runs `operation`, which must change the stored record exactly once: one write, the revision one higher, the
    /// store's memory at that revision, and its observers told.
    func expectOneChange(
        _ operation: String, of store: AuthStore, observer: Observer, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async throws {
        let writes = counting.writes
        let revision = try await stored?.revision ?? 0
        let told = observer.count
        try await body()
        let after = try await stored
        #expect(counting.writes == writes + 1, "\(operation): one write", sourceLocation: sourceLocation)
        #expect(
            after?.revision == revision + 1, "\(operation): the revision one higher", sourceLocation: sourceLocation)
        #expect(
            await store.recordFacts()?.revision == after?.revision, "\(operation): the store's memory follows",
            sourceLocation: sourceLocation)
        #expect(
            await bench.eventually { observer.count > told }, "\(operation): the observers told",
            sourceLocation: sourceLocation)
    }

    @Test func everyOperationChangesTheRecordOnceThroughTheOneUpdate() async throws {
        let store = makeStore()
        let observer = await Observer(store)
        await store.bootstrap()
        try await expectOneChange("a password sign-in", of: store, observer: observer) { try await signIn(store) }
        #expect(try await stored?.device != nil, "the device confirmed by the sign-in is in the same write")
        try await expectOneChange("a client secret saved", of: store, observer: observer) {
            try await store.setClientSecret(SecretBytes(utf8: "client-secret-1"))
        }
        try await expectOneChange("AWS credentials", of: store, observer: observer) {
            _ = try await store.validAWSCredentials(AWSCredentialRequest(pool: pool, providerName: Self.provider))
        }
        try await expectOneChange("a refresh", of: store, observer: observer) { _ = try await store.refreshNow() }
        let device = try #require(try await stored?.device?.key)
        try await expectOneChange("a device forgotten", of: store, observer: observer) {
            await store.forgetDevice(device)
        }
        try await expectOneChange("a sign-out", of: store, observer: observer) {
            _ = await store.signOut(global: false)
        }
        expectSecret(
            "client-secret-1", equals: text(try await stored?.clientSecret), "a sign-out keeps the client secret")
        let browser = OAuthTokens(tokens: bench.authority.tokens(), identities: [], refreshTokenRotated: false)
        try await expectOneChange("a browser sign-in", of: store, observer: observer) {
            _ = try await store.signIn(browserTokens: browser)
        }
        try await expectOneChange("a client secret removed", of: store, observer: observer) {
            try await store.setClientSecret(nil)
        }
        let last = try #require(try await stored)
        #expect(last.clientSecret == nil && last.hasSession)
    }

    @Test func aMachineTokenChangesTheRecordOnceThroughTheOneUpdate() async throws {
        let store = makeStore(machine: FakeMachine(clock: bench.clock))
        let observer = await Observer(store)
        try await expectOneChange("a machine token", of: store, observer: observer) {
            _ = try await store.validAccessToken()
        }
        bench.clock.advance(by: 3590)
        try await expectOneChange("the next machine token", of: store, observer: observer) {
            _ = try await store.validAccessToken()
        }
        try await expectOneChange("a client secret saved", of: store, observer: observer) {
            try await store.setClientSecret(SecretBytes(utf8: "client-secret-1"))
        }
        try await expectOneChange("a sign-out", of: store, observer: observer) {
            _ = await store.signOut(global: false)
        }
    }

    @Test func aChangeThatChangesNothingWritesNothing() async throws {
        let store = makeStore()
        let other = makeStore()
        try await signIn(store)
        await other.bootstrap()
        try await store.setClientSecret(SecretBytes(utf8: "client-secret-1"))
        let request = AWSCredentialRequest(pool: pool, providerName: Self.provider)
        _ = try await store.validAWSCredentials(request)
        let writes = counting.writes
        let revision = try await stored?.revision

        try await store.setClientSecret(SecretBytes(utf8: "client-secret-1"))
        await store.forgetDevice("a device this machine is not")
        // Another process, which read the vault before they were fetched, finds the credentials there under the
        // lock, and leaves the record as it is.
        _ = try await other.validAWSCredentials(request)
        #expect(pool.calls.credentials == 1)
        #expect(counting.writes == writes)
        #expect(try await stored?.revision == revision)
    }

    /// A store whose memory is behind the vault (another process changed the record since it last looked) changes
    /// the record as the vault holds it, read again under the lock: nothing the other process wrote is lost.
    @Test func aChangeByAnotherStoreOnTheSameVaultIsNotLost() async throws {
        let first = makeStore()
        let second = makeStore()
        try await signIn(first)
        await second.bootstrap()

        _ = try await first.refreshNow()
        let refreshed = try #require(try await stored)
        try await second.setClientSecret(SecretBytes(utf8: "client-secret-2"))  // second still holds the first session
        var latest = try #require(try await stored)
        #expect(latest.revision == refreshed.revision + 1)
        expectSecret(
            text(refreshed.refreshToken), equals: text(latest.refreshToken), "the refresh another store made is kept")
        expectSecret(text(refreshed.accessToken), equals: text(latest.accessToken))
        expectSecret("client-secret-2", equals: text(latest.clientSecret))

        // And the other way: the first store, which never saw the secret, refreshes again and keeps it.
        bench.clock.advance(by: 3590)
        _ = try await first.validAccessToken()
        latest = try #require(try await stored)
        expectSecret("client-secret-2", equals: text(latest.clientSecret), "the secret another store saved is kept")
        expectSecret(text(refreshed.accessToken), differsFrom: text(latest.accessToken), "refreshed again")
        #expect(latest.revision == refreshed.revision + 2)
    }
}
