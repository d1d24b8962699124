import AuthCrypto
import CognitoAuth
import Testing
import TestSupport
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
            #expect(fresh.expiresAt == served.expiresAt && fresh.username == served.username && fresh.username == "alice-internal")
        }

        let before = text(store.freshToken(.access)?.token)
        bench.clock.advance(by: 3400)   // the advisory window: the store would refresh
        #expect(store.freshToken(.access) == nil && store.freshToken(.id) == nil)
        _ = try await store.validAccessToken()   // starts the refresh in the background, serving the current token
        #expect(await bench.eventually { store.freshToken(.access) != nil }, "the refreshed token is fresh")
        expectSecret(before, differsFrom: text(store.freshToken(.access)?.token))
        expectSecret(text(try await bench.vault.load(profile: "work")?.accessToken), equals: text(store.freshToken(.access)?.token))
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
        let store = AuthStore(profile: "work", vault: bench.vault, lock: ProfileLock(directory: bench.directory.path, profile: "work"),
                              authority: bench.authority, machine: FakeMachine(clock: bench.clock), now: bench.clock.now)
        let served = try await store.validAccessToken()
        expectSecret(text(served), equals: text(store.freshToken(.access)?.token))
        #expect(store.freshToken(.id) == nil)
        bench.clock.advance(by: 3400)
        #expect(store.freshToken(.access) == nil)
    }
}
