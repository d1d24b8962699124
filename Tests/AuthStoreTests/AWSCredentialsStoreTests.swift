import AuthCrypto
import CognitoAuth
import Foundation
import TestSupport
import Testing
import TokenVault

@testable import AuthStore

/// Identity-pool credentials served by the store: fetched with the session's ID token, kept in the vault with the
/// session, reused while they last the asked-for time, one fetch for many callers and processes, and dropped by a
/// sign-out or the next sign-in.
@Suite struct AWSCredentialsStoreTests {
    static let provider = "cognito-idp.us-east-1.amazonaws.com/us-east-1_Pool1"
    let clock = TestClock()
    let directory: TemporaryDirectory
    let vault = MemoryVault()
    let authority: FakeAuthority
    let pool: FakeIdentityPool

    init() throws {
        directory = try TemporaryDirectory()
        authority = FakeAuthority(clock: clock)
        pool = FakeIdentityPool(clock: clock)
    }

    /// A store as one process has it; several on the same vault and lock directory are several processes.
    func makeStore() -> AuthStore {
        AuthStore(
            profile: "work", vault: vault, lock: ProfileLock(directory: directory.path, profile: "work"),
            authority: authority, refreshesInBackground: false, now: clock.now)
    }

    func signedInStore() async throws -> AuthStore {
        let store = makeStore()
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        return store
    }

    var request: AWSCredentialRequest { AWSCredentialRequest(pool: pool, providerName: Self.provider) }

    func text(_ secret: SecretBytes?) -> String? { secret?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @Test func theFirstCallFetchesWithTheIDTokenAndLaterOnesReuseTheVaults() async throws {
        let store = try await signedInStore()
        let credentials = try await store.validAWSCredentials(request)
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(pool.calls.getId == 1 && pool.calls.credentials == 1)
        #expect(pool.calls.logins.count == 2)
        for login in pool.calls.logins {
            expectSecret(text(stored.idToken), equals: login, "each call's login is the stored ID token")
        }
        #expect(stored.identityId == credentials.identityId)
        #expect(stored.awsCredentials?.accessKeyId == credentials.accessKeyId)
        #expect(stored.awsCredentials?.sessionToken == credentials.sessionToken)
        #expect(!"\(stored)".contains("secret-key") && !"\(credentials)".contains("secret-key"))

        _ = try await store.validAWSCredentials(request)
        let anotherProcess = try await makeStore().validAWSCredentials(request)
        #expect(anotherProcess.accessKeyId == credentials.accessKeyId)
        #expect(pool.calls.credentials == 1, "reused from memory and from the vault")
    }

    @Test func credentialsNearingTheMinimumAreFetchedAgainForTheSameIdentity() async throws {
        let store = try await signedInStore()
        let first = try await store.validAWSCredentials(request)
        clock.advance(by: 3600 - 16 * 60 + 1)  // less than 16 minutes left
        _ = try await store.validIDToken()  // (the session itself is refreshed as usual)
        let second = try await store.validAWSCredentials(request)
        #expect(second.accessKeyId != first.accessKeyId)
        #expect(second.expiresAt - clock.reading >= 15 * 60)
        #expect(pool.calls.getId == 1, "the identity id is kept")
        #expect(pool.calls.identitiesAsked == [first.identityId, first.identityId])
    }

    @Test func manyCallersInManyProcessesMakeOneFetch() async throws {
        _ = try await signedInStore()
        let stores = (0..<6).map { _ in makeStore() }
        let keys = try await withThrowingTaskGroup(of: String.self) { group in
            for store in stores {
                for _ in 0..<3 { group.addTask { try await store.validAWSCredentials(request).accessKeyId } }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(keys.count == 1)
        #expect(pool.calls.credentials == 1 && pool.calls.getId == 1)
    }

    @Test func withoutASessionTheUserIsToldToSignInAndThePoolIsNotAsked() async throws {
        await #expect(throws: AuthStoreError.signInRequired(nil)) { try await makeStore().validAWSCredentials(request) }
        #expect(pool.calls.getId == 0 && pool.calls.credentials == 0)
    }

    @Test func aGuestNeedsNoSessionAndItsCredentialsAreKeptToo() async throws {
        let guest = AWSCredentialRequest(pool: pool, providerName: nil)
        let credentials = try await makeStore().validAWSCredentials(guest)
        #expect(pool.calls.logins == ["guest", "guest"])
        #expect(try await makeStore().validAWSCredentials(guest).accessKeyId == credentials.accessKeyId)
        #expect(pool.calls.credentials == 1)
    }

    @Test func signOutAndTheNextSignInDropTheIdentityAndCredentials() async throws {
        let store = try await signedInStore()
        _ = try await store.validAWSCredentials(request)
        _ = await store.signOut(global: false)
        #expect(try await vault.load(profile: "work")?.awsCredentials == nil)

        let again = try await signedInStore()
        _ = try await again.validAWSCredentials(request)
        _ = try await again.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(stored.identityId == nil && stored.awsCredentials == nil)
    }

    /// Credentials are served only for the pool and role they were issued for: another role fetches anew for the
    /// same identity; another pool asks for a new identity first (an identity id means nothing to another pool).
    @Test func credentialsAreServedOnlyForThePoolAndRoleTheyWereIssuedFor() async throws {
        let store = try await signedInStore()
        let first = try await store.validAWSCredentials(request)
        let pool = pool.scope.identityPoolId
        self.pool.repoint(to: AWSCredentialScope(identityPoolId: pool, roleARN: "arn:aws:iam::123456789012:role/Other"))
        let otherRole = try await makeStore().validAWSCredentials(request)
        #expect(otherRole.accessKeyId != first.accessKeyId, "the old role's credentials were served")
        #expect(self.pool.calls.getId == 1 && self.pool.calls.credentials == 2)
        #expect(try await vault.load(profile: "work")?.awsCredentials?.scope == self.pool.scope)

        self.pool.repoint(
            to: AWSCredentialScope(identityPoolId: "us-east-1:00000000-0000-4000-8000-00000000000b", roleARN: nil))
        let otherPool = try await store.validAWSCredentials(request)
        #expect(otherPool.accessKeyId != otherRole.accessKeyId, "the old pool's credentials were served")
        #expect(self.pool.calls.getId == 2, "the new pool was asked for an identity")
        let stored = try #require(try await vault.load(profile: "work"))
        #expect(stored.identityPoolId == self.pool.scope.identityPoolId && stored.identityId == otherPool.identityId)
    }

    /// An entry saved before scopes were recorded says nothing of its pool or role: it is never served.
    @Test func credentialsWithoutAScopeAreFetchedAnew() async throws {
        let store = try await signedInStore()
        let first = try await store.validAWSCredentials(request)
        var record = try #require(try await vault.load(profile: "work"))
        record.awsCredentials?.scope = nil
        record.identityPoolId = nil
        try await vault.save(record)
        let second = try await makeStore().validAWSCredentials(request)
        #expect(second.accessKeyId != first.accessKeyId)
        #expect(pool.calls.getId == 2 && pool.calls.credentials == 2)
    }

    @Test func anIdentityThePoolForgotIsReplacedOnce() async throws {
        let store = try await signedInStore()
        let first = try await store.validAWSCredentials(request)
        pool.forget(first.identityId)
        clock.advance(by: 3600)
        _ = try await store.validIDToken()
        let second = try await store.validAWSCredentials(request)
        #expect(second.identityId != first.identityId)
        #expect(try await vault.load(profile: "work")?.identityId == second.identityId)
        #expect(pool.calls.getId == 2 && pool.calls.credentials == 3)
    }

    @Test func poolFailuresSaveNothingAndSayWhetherToRetry() async throws {
        let store = try await signedInStore()
        pool.fail(with: .identityNotAuthorized(message: "Invalid login token."))
        await #expect(throws: AuthStoreError.rejected(.identityNotAuthorized(message: "Invalid login token."))) {
            try await store.validAWSCredentials(request)
        }
        pool.fail(with: .tooManyRequests(message: "Rate exceeded"))
        await #expect(throws: AuthStoreError.network(.tooManyRequests(message: "Rate exceeded"))) {
            try await store.validAWSCredentials(request)
        }
        #expect(try await vault.load(profile: "work")?.awsCredentials == nil)
        #expect(try await vault.load(profile: "work")?.hasSession == true, "the session stays")
    }
}
