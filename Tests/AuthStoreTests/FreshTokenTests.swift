import AuthCrypto
import CognitoAuth
import SystemPlumbing
import TestSupport
import Testing
import TokenVault

@testable import AuthStore

/// `freshToken`, the store's answer without waiting for its actor: exactly the token `validToken` would hand out
/// without doing anything else, and nothing from the moment the store would refresh, sign in or has signed out.
@Suite struct FreshTokenTests {
    let bench: AuthStoreTests

    init() throws {
        bench = try AuthStoreTests()
    }

    func text(_ secret: SecretBytes?) -> String? { secret?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @Test func itIsTheTokenValidTokenServesWhileFreshAndNothingOnceARefreshIsDue() async throws {
        let store = bench.makeStore()
        #expect(store.freshToken(.access) == nil, "nothing read yet")
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        for kind in [TokenKind.access, .id] {
            let served = try await store.validToken(kind)
            let fresh = try #require(store.freshToken(kind))
            expectSecret(text(served.token), equals: text(fresh.token), "\(kind)")
            #expect(
                fresh.expiresAt == served.expiresAt && fresh.username == served.username
                    && fresh.username == "alice-internal")
        }

        let before = text(store.freshToken(.access)?.token)
        bench.clock.advance(by: 3400)  // the advisory window: the store would refresh
        #expect(store.freshToken(.access) == nil && store.freshToken(.id) == nil)
        _ = try await store.validAccessToken()  // starts the refresh in the background, serving the current token
        #expect(await bench.eventually { store.freshToken(.access) != nil }, "the refreshed token is fresh")
        expectSecret(before, differsFrom: text(store.freshToken(.access)?.token))
        expectSecret(
            text(try await bench.vault.load(profile: "work")?.accessToken),
            equals: text(store.freshToken(.access)?.token))
    }

    @Test func aSignOutOrAnEndedSessionLeavesNothingFresh() async throws {
        let store = try await bench.signedInStore()
        #expect(store.freshToken(.access) != nil)
        _ = await store.signOut(global: false)
        #expect(store.freshToken(.access) == nil, "at once: no copy outlives the sign-out")

        let ended = try await bench.signedInStore()
        bench.authority.setRefresh(.fail(.refreshTokenRejected(message: "Refresh Token has been revoked")))
        _ = try? await ended.refreshNow()
        #expect(await ended.state == .needsSignIn(.refreshRejected("Refresh Token has been revoked")))
        #expect(ended.freshToken(.access) == nil)
    }

    @Test func aMachineProfileHasAFreshAccessTokenAndNoIDToken() async throws {
        let store = AuthStore(
            profile: "work", vault: bench.vault, lock: ProfileLock(directory: bench.directory.path, profile: "work"),
            authority: bench.authority, machine: FakeMachine(clock: bench.clock), now: bench.clock.now)
        let served = try await store.validAccessToken()
        expectSecret(text(served), equals: text(store.freshToken(.access)?.token))
        #expect(store.freshToken(.id) == nil)
        bench.clock.advance(by: 3400)
        #expect(store.freshToken(.access) == nil)
    }

    /// `freshTokenAtHand`, the one-shot process's path: the token `validToken` would serve, from one read of the
    /// vault and without the store's actor (its state stays unread), and nothing once a refresh is due.
    @Test func aFreshTokenAtHandIsServedWithoutTheActor() async throws {
        _ = try await bench.signedInStore()
        let record = try #require(try await bench.vault.load(profile: "work"))
        let atHand = AtHandVault(record)
        let store = bench.makeStore(vault: atHand)
        for kind in [TokenKind.access, .id] {
            let served = try #require(store.freshTokenAtHand(kind))
            expectSecret(
                text(served.token), equals: text(kind == .access ? record.accessToken : record.idToken), "\(kind)")
            #expect(served.username == "alice-internal")
        }
        #expect(await store.state == .bootstrapping, "the actor never ran")
        #expect(atHand.reads == 2 && atHand.loads == 0)
        let served = try await store.validToken(.access)
        #expect(served.expiresAt == store.freshTokenAtHand(.access)?.expiresAt)

        bench.clock.advance(by: 3400)  // the advisory window: the store would refresh
        #expect(bench.makeStore(vault: atHand).freshTokenAtHand(.access) == nil)
        #expect(
            bench.makeStore(vault: AtHandVault(CredentialRecord(profile: "work"))).freshTokenAtHand(.access) == nil,
            "no session")
        #expect(bench.makeStore().freshTokenAtHand(.access) == nil, "a vault that has nothing at hand")
    }

    /// The token served at hand is kept by the vault for the next process, servable exactly until the end of its
    /// fresh window by this machine's clock: when `freshTokenAtHand` itself stops serving it.
    @Test func aTokenServedAtHandIsKeptUntilTheEndOfItsFreshWindow() async throws {
        _ = try await bench.signedInStore()
        let record = try #require(try await bench.vault.load(profile: "work"))
        let atHand = AtHandVault(record)
        #expect(bench.makeStore(vault: atHand).keptFreshToken(.access) == nil, "nothing kept yet")
        let served = try #require(bench.makeStore(vault: atHand).freshTokenAtHand(.access))
        let kept = try #require(atHand.kept["access"])
        let lifetime = try #require(record.lifetime(of: .access))
        let freshUntil = RefreshPolicy().freshUntil(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt)
        #expect(kept.entry.servableUntil == freshUntil && kept.entry.expiresAt == served.expiresAt)
        #expect(kept.seconds == freshUntil - bench.clock.now() && kept.entry.recordTag == atHand.tag)
        expectSecret(text(kept.entry.token), equals: text(served.token))
        #expect(kept.entry.username == "alice-internal")

        let store = bench.makeStore(vault: atHand)
        expectSecret(text(store.keptFreshToken(.access)?.token), equals: text(served.token))
        bench.clock.advance(by: freshUntil - bench.clock.now() - 0.5)
        #expect(store.keptFreshToken(.access) != nil && bench.makeStore(vault: atHand).freshTokenAtHand(.access) != nil)
        bench.clock.advance(by: 0.5)
        #expect(store.keptFreshToken(.access) == nil, "the fresh window ended")
        #expect(bench.makeStore(vault: atHand).freshTokenAtHand(.access) == nil, "and so did freshTokenAtHand's")
    }

    /// A token `validToken` served is kept too, when it comes from the record the vault read last and is fresh.
    @Test func aTokenValidTokenServedIsKeptWhenFresh() async throws {
        _ = try await bench.signedInStore()
        let record = try #require(try await bench.vault.load(profile: "work"))
        let atHand = AtHandVault(record)
        let store = bench.makeStore(vault: atHand)
        let served = try await store.validToken(.id)
        await store.keepForNextProcess(.id)
        expectSecret(text(atHand.kept["id"]?.entry.token), equals: text(served.token))
        #expect(atHand.kept["access"] == nil)

        bench.clock.advance(by: 3400)  // the advisory window: not fresh, not kept
        let late = AtHandVault(record)
        let lateStore = bench.makeStore(vault: late)
        _ = try await lateStore.validToken(.access)
        await lateStore.keepForNextProcess(.access)
        #expect(late.kept.isEmpty)
    }
}

/// A vault whose record is always at hand; counts those reads apart from `load`'s.
private final class AtHandVault: VaultRecordAtHand {
    private let inner = MemoryVault()
    private let record: CredentialRecord
    private let counts = Locked((reads: 0, loads: 0))
    private let entries = Locked([String: (entry: FreshTokenEntry, seconds: Double)]())
    let tag: [UInt8] = Array(1...12)

    init(_ record: CredentialRecord) {
        self.record = record
    }

    var reads: Int { counts.withLock { $0.reads } }
    var loads: Int { counts.withLock { $0.loads } }
    var kept: [String: (entry: FreshTokenEntry, seconds: Double)] { entries.withLock { $0 } }
    var kind: VaultBackendKind { .memory }

    func recordAtHand(profile: String) -> RecordAtHand? {
        counts.withLock { $0.reads += 1 }
        return RecordAtHand(record: record, tag: tag, dataKeyDescription: "the data key")
    }

    func freshTokenEntry(profile: String, kind: String) -> FreshTokenEntry? { kept[kind]?.entry }

    func recordLastRead(profile: String) async -> RecordAtHand? {
        RecordAtHand(record: record, tag: tag, dataKeyDescription: "the data key")
    }

    func keepFreshToken(_ entry: FreshTokenEntry, profile: String, kind: String, seconds: Double) -> String? {
        entries.withLock { $0[kind] = (entry, seconds) }
        return nil
    }

    func load(profile: String) async throws(VaultError) -> CredentialRecord? {
        counts.withLock { $0.loads += 1 }
        return record
    }

    func save(_ record: CredentialRecord) async throws(VaultError) { try await inner.save(record) }
    func delete(profile: String) async throws(VaultError) { try await inner.delete(profile: profile) }
    func profiles() async throws(VaultError) -> [String] { ["work"] }
    func status() async -> VaultStatus { await inner.status() }
}
