import AuthCrypto
import CognitoAuth
import Foundation
import TestSupport
import Testing
import TokenVault
import TokenVerification

@testable import AuthStore

/// The store's own logic with a scripted authority and an in-memory vault. Against the real client and
/// moto's server, see the end-to-end tests.
@Suite struct AuthStoreTests {
    let clock = TestClock()
    let directory: TemporaryDirectory
    let vault = MemoryVault()
    let authority: FakeAuthority

    init() throws {
        directory = try TemporaryDirectory()
        authority = FakeAuthority(clock: clock)
    }

    func makeStore(vault: (any VaultBackend)? = nil) -> AuthStore {
        AuthStore(
            profile: "work", vault: vault ?? self.vault, lock: ProfileLock(directory: directory.path, profile: "work"),
            authority: authority, now: clock.now)
    }

    func signedInStore() async throws -> AuthStore {
        let store = makeStore()
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        return store
    }

    func text(_ secret: SecretBytes) -> String { secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @Test func bootstrapFromAnEmptyVaultIsSignedOut() async {
        let store = makeStore()
        #expect(await store.bootstrap() == .signedOut)
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await store.validAccessToken() }
    }

    @Test func signInPersistsAndAFreshTokenIsServedWithoutRefreshing() async throws {
        let store = try await signedInStore()
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(stored.identity?.username == "alice-internal")
        #expect(stored.origin == .userPoolAPI)
        let token = try await store.validAccessToken()
        #expect(token == stored.accessToken)
        #expect(authority.calls.refresh == 0)

        // A new process (a new store on the same vault) starts signed in.
        let later = makeStore()
        guard case .signedIn(let summary) = await later.bootstrap() else {
            Issue.record("not signed in")
            return
        }
        #expect(summary.user == "alice@example.com")
    }

    @Test func wrongPasswordIsRejectedAndKeepsNothing() async throws {
        let store = makeStore()
        await #expect(throws: AuthStoreError.rejected(.notAuthorized(message: "Incorrect username or password."))) {
            try await store.signIn(username: "alice", password: SecretBytes(utf8: "wrong"))
        }
        #expect(await store.state == .signedOut)
        #expect(try await vault.load(profile: "work") == nil)
    }

    @Test func aWrongCodeKeepsTheChallengeForAnotherTry() async throws {
        authority.setChallenges([.softwareTokenMFA])
        let store = makeStore()
        guard
            case .challenge(let challenge) = try await store.signIn(
                username: "alice", password: SecretBytes(utf8: "correct horse"))
        else {
            Issue.record("expected a challenge")
            return
        }
        #expect(challenge.kind == .softwareTokenMFA)
        await #expect(throws: AuthStoreError.self) { try await store.answer(.code(SecretBytes(utf8: "000000"))) }
        guard case .awaitingChallenge = await store.state else {
            Issue.record("challenge lost")
            return
        }
        guard case .signedIn = try await store.answer(.code(SecretBytes(utf8: "123456"))) else {
            Issue.record("expected a session")
            return
        }
        #expect(authority.calls.respond == 2)
    }

    @Test func anExpiredChallengeSaysSo() async throws {
        authority.setChallenges([.smsMFA])
        let store = makeStore()
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        clock.advance(by: 181)
        await #expect(throws: AuthStoreError.challengeExpired) {
            try await store.answer(.code(SecretBytes(utf8: "123456")))
        }
        await #expect(throws: AuthStoreError.noPendingChallenge) {
            try await store.answer(.code(SecretBytes(utf8: "123456")))
        }
    }

    @Test func fiftyConcurrentCallersInTheMandatoryWindowCauseOneRefresh() async throws {
        let store = try await signedInStore()
        let before = try await store.validAccessToken()
        clock.advance(by: 3590)  // 10 s left: mandatory
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { text(try await store.validAccessToken()) } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(authority.calls.refresh == 1)
        #expect(tokens.count == 1)
        expectSecret(text(before), differsFrom: tokens.first, "a refreshed token")
        expectSecret(tokens.first, equals: try await vault.load(profile: "work")?.accessToken.map(text))
    }

    @Test func advisoryWindowServesTheCurrentTokenAndRefreshesInTheBackground() async throws {
        let store = try await signedInStore()
        let before = try await store.validAccessToken()
        clock.advance(by: 3400)  // 200 s left: advisory
        #expect(try await store.validAccessToken() == before)
        for _ in 0..<200 {
            if try await vault.load(profile: "work")?.accessToken != before { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(authority.calls.refresh == 1)
        #expect(try await store.validAccessToken() != before)
    }

    @Test func advisoryRefreshFailureKeepsServingAndThrottles() async throws {
        let store = try await signedInStore()
        let before = try await store.validAccessToken()
        authority.setRefresh(.fail(.network(.timedOut)))
        clock.advance(by: 3400)
        #expect(try await store.validAccessToken() == before)
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await store.validAccessToken() == before)
        #expect(try await store.validAccessToken() == before)
        #expect(authority.calls.refresh == 1)  // throttled: no second attempt within the retry delay
    }

    @Test func transientFailuresNeverSignOutOrTouchTheVault() async throws {
        let store = try await signedInStore()
        let stored = try await vault.load(profile: "work")
        for error: CognitoError in [
            .network(.timedOut), .network(.connectionLost("reset")), .serverError(status: 503),
            .tooManyRequests(message: "slow down"), .internalError(message: "oops"),
        ] {
            authority.setRefresh(.fail(error))
            clock.advance(by: 3700)  // expired
            await #expect(throws: AuthStoreError.network(error)) { try await store.validAccessToken() }
            guard case .signedIn = await store.state else {
                Issue.record("session lost after \(error)")
                return
            }
            #expect(try await vault.load(profile: "work") == stored)
            clock.advance(by: -3700)
            clock.advance(by: 60)  // past the retry delay
        }
    }

    /// A browser session's failures come from the OAuth client, mapped at the authority's boundary: the server's
    /// trouble never ends the session (whatever status it chose), invalid_grant on refresh does.
    @Test func oauthFailuresKeepTheStoresRule() {
        let transient: [OAuthError] = [
            .network(.timedOut), .serverError(status: 502), .throttled,
            .refused(.temporarilyUnavailable, description: "", status: 400, operation: .refresh),
            .refused(.serverError, description: "", status: 400, operation: .refresh),
            .deadlineExceeded(operation: "the refresh-token grant", attempts: 3, lastError: .serverError(status: 503)),
        ]
        for error in transient {
            let mapped = CognitoError(error)
            #expect(mapped.isRetryable && !mapped.requiresSignIn, "\(error)")
        }
        let over = CognitoError(
            .refused(.invalidGrant, description: "Refresh Token has been revoked", status: 400, operation: .refresh))
        #expect(over.requiresSignIn && !over.isRetryable)
        #expect(over.description.contains("Refresh Token has been revoked"))
        #expect(
            !CognitoError(.refused(.invalidGrant, description: "", status: 400, operation: .codeExchange))
                .requiresSignIn)
        #expect(!CognitoError(.refused(.invalidClient, description: "", status: 401, operation: .refresh)).isRetryable)
    }

    @Test func aRejectedRefreshEndsTheSessionEverywhere() async throws {
        let store = try await signedInStore()
        authority.setRefresh(.fail(.refreshTokenRejected(message: "Refresh Token has been revoked")))
        clock.advance(by: 3590)
        await #expect(throws: AuthStoreError.signInRequired(.refreshRejected("Refresh Token has been revoked"))) {
            try await store.validAccessToken()
        }
        #expect(await store.state == .needsSignIn(.refreshRejected("Refresh Token has been revoked")))
        #expect(try await vault.load(profile: "work")?.hasSession == false)
        // Every process learns why: the reason stays in the vault until the next sign-in or sign-out.
        #expect(await makeStore().bootstrap() == .needsSignIn(.refreshRejected("Refresh Token has been revoked")))
    }

    @Test func rotatedRefreshTokenIsPersistedAndUsedNext() async throws {
        authority.setRefresh(.succeed(rotating: true))
        let store = try await signedInStore()
        clock.advance(by: 3590)
        _ = try await store.validAccessToken()
        let rotated = try #require(try await vault.load(profile: "work")?.refreshToken)
        #expect(text(rotated) != "refresh-1")
        clock.advance(by: 3590)
        _ = try await store.validAccessToken()
        #expect(authority.calls.refreshTokensSeen == ["refresh-1", text(rotated)])
    }

    @Test func aBrowserSessionKeepsItsIdentitiesAndIsRefreshedAsABrowserSession() async throws {
        let store = makeStore()
        let browser = OAuthTokens(
            tokens: authority.tokens(), identities: [FederatedIdentity(providerName: "Google", userId: "1122")],
            refreshTokenRotated: false)
        let summary = try await store.signIn(browserTokens: browser)
        #expect(summary.user == "alice@example.com")
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(stored.origin == .browser)
        #expect(stored.identity?.federated == [UserIdentity.FederatedLink(provider: "Google", userId: "1122")])
        clock.advance(by: 3590)
        _ = try await store.validAccessToken()
        #expect(authority.calls.refreshOrigins == [.browser])
        let refreshed = try #require(try await vault.load(profile: "work"))
        #expect(refreshed.identity?.federated.map(\.provider) == ["Google"], "a refresh keeps the federated identities")
        #expect(refreshed.origin == .browser)
    }

    @Test func callersArrivingWhileTheVaultIsReadShareThatOneRead() async throws {
        _ = try await signedInStore()
        let slow = CountingVault(vault, readDelay: .milliseconds(50))
        let store = makeStore(vault: slow)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = try? await store.validAccessToken() } }
        }
        #expect(slow.loads == 1)
    }

    @Test func refreshNowRefreshesAFreshSessionAndSaysWhenItCannot() async throws {
        let store = try await signedInStore()
        let before = try await store.validAccessToken()
        let summary = try await store.refreshNow()
        #expect(authority.calls.refresh == 1)
        #expect(try await store.validAccessToken() != before)
        #expect(summary.revision == (try await vault.load(profile: "work"))?.revision)
        authority.setRefresh(.fail(.network(.cannotConnect("127.0.0.1:9"))))
        await #expect(throws: AuthStoreError.self) { try await store.refreshNow() }
        await #expect(throws: AuthStoreError.signInRequired(nil)) {
            try await makeStore(vault: MemoryVault()).refreshNow()
        }
    }

    @Test func aSecondProcessAdoptsTheRefreshAnotherMadeInsteadOfRefreshingAgain() async throws {
        // Two stores on one vault and one lock directory stand for two processes.
        let first = try await signedInStore()
        let second = makeStore()
        await second.bootstrap()
        clock.advance(by: 3590)
        let refreshed = try await first.validAccessToken()
        #expect(authority.calls.refresh == 1)
        #expect(try await second.validAccessToken() == refreshed)
        #expect(authority.calls.refresh == 1)
    }

    @Test func signOutClearsLocallyFirstAndReportsRemoteFailures() async throws {
        let store = try await signedInStore()
        let result = await store.signOut(global: true)
        #expect(await store.state == .signedOut)
        #expect(try await vault.load(profile: "work") == nil)
        #expect(result.revoked == true)
        #expect(result.signedOutGlobally == false)
        #expect(result.remoteFailures.count == 1)
        #expect(!result.isComplete)
        #expect(authority.calls.revokedTokens == ["refresh-1"])
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await store.validAccessToken() }
    }

    @Test func signOutKeepsTheClientSecret() async throws {
        var record = CredentialRecord(profile: "work")
        record.clientSecret = SecretBytes(utf8: "client-secret")
        try await vault.save(record)
        let store = try await signedInStore()
        #expect(try await vault.load(profile: "work")?.clientSecret == SecretBytes(utf8: "client-secret"))
        _ = await store.signOut(global: false)
        let after = try #require(try await vault.load(profile: "work"))
        #expect(after.clientSecret == SecretBytes(utf8: "client-secret"))
        #expect(!after.hasSession)
    }

    @Test func statesAreObservable() async throws {
        let store = makeStore()
        let stream = await store.states()
        let collector = Task { () -> [String] in
            var seen: [String] = []
            for await state in stream {
                seen.append("\(state)")
                if case .signedIn = state { break }
            }
            return seen
        }
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        let seen = await collector.value
        #expect(seen == ["bootstrapping", "signed out", "signing in", "signed in as alice@example.com"])
    }
}
