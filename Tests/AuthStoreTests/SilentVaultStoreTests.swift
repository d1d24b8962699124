import AuthCrypto
import CognitoAuth
import Testing
import TokenVault

@testable import AuthStore

/// A sign-in on a vault that did not answer (a Secret Service that timed out under load): it reads the vault again
/// first, and goes on if it answers now; if it still does not, the caller is told the vault's reason, not that
/// another sign-in is in progress. `busy` stays for an operation in flight.
extension AuthStoreTests {
    static let silence = VaultError.timedOut(seconds: SilentVault.bound)

    @Test func aSignInAfterALoadThatTimedOutReadsTheVaultAgainAndGoesOn() async throws {
        let silent = SilentVault(vault)
        let store = makeStore(vault: silent)
        #expect(await store.bootstrap() == .vaultUnavailable(Self.silence))
        silent.answer(true)
        guard case .signedIn = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        else {
            Issue.record("expected a session")
            return
        }
        #expect(try await vault.load(profile: "work")?.hasSession == true)
        #expect(authority.calls.signIn == 1)
    }

    @Test func aSignInOnAVaultThatStillDoesNotAnswerSaysSoAndSendsNothing() async throws {
        let silent = SilentVault(vault)
        let store = makeStore(vault: silent)
        #expect(await store.bootstrap() == .vaultUnavailable(Self.silence))
        await #expect(throws: AuthStoreError.vault(Self.silence)) {
            try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        }
        #expect(silent.loads == 2, "the sign-in read the vault again before giving up")
        let browser = OAuthTokens(tokens: authority.tokens(), identities: [], refreshTokenRotated: false)
        await #expect(throws: AuthStoreError.vault(Self.silence)) { try await store.signIn(browserTokens: browser) }
        #expect(authority.calls.signIn == 0, "no password went to Cognito")
        #expect(await store.state == .vaultUnavailable(Self.silence))
    }

    /// A new process (a new store) whose first read times out, as `authvault login` under load did.
    @Test func aFirstSignInOnAVaultThatDoesNotAnswerSaysSo() async throws {
        let silent = SilentVault(vault)
        await #expect(throws: AuthStoreError.vault(Self.silence)) {
            try await makeStore(vault: silent).signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        }
    }

    @Test func aSignInWhileAnAnswerIsOnItsWayIsBusy() async throws {
        let (store, answer) = try await storeWithAnAnswerOnItsWay(code: "123456")
        await #expect(throws: AuthStoreError.busy("sign-in, refresh or sign-out")) {
            try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
        }
        authority.respondGate.open()
        guard case .signedIn = try await answer.value else {
            Issue.record("the answer in flight was lost")
            return
        }
    }
}
