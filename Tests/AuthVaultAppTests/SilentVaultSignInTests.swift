import AuthStore
import CognitoAuth
import Foundation
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultApp

/// A sign-in whose vault does not answer (a Secret Service that timed out under load) fails as the vault's failure,
/// with its reason and its next step, not as "another sign-in is in progress", before the password is read; nothing
/// is sent to Cognito.
@Suite struct SilentVaultSignInTests {
    /// A Secret Service that takes every call and answers none.
    struct SilentSecretService: VaultBackend {
        static let silence = VaultError.timedOut(seconds: 3)
        var kind: VaultBackendKind { .secretService }
        func load(profile: String) async throws(VaultError) -> CredentialRecord? { throw Self.silence }
        func save(_ record: CredentialRecord) async throws(VaultError) { throw Self.silence }
        func delete(profile: String) async throws(VaultError) { throw Self.silence }
        func profiles() async throws(VaultError) -> [String] { throw Self.silence }
        func status() async -> VaultStatus { VaultStatus(backend: kind, state: .timedOut, location: "default") }
    }

    @Test func aSignInOnAVaultThatDoesNotAnswerIsTheVaultsFailure() async throws {
        let root = try TemporaryDirectory()
        // Cognito on a port nobody listens on: the sign-in must fail before it asks.
        let opened = try ProfileSession.open(
            profile: "work",
            settings: .cognito(userPoolId: "eu-west-1_AbC123", clientId: "client1", endpoint: "http://127.0.0.1:9"),
            vault: .secretService(stateDirectory: root.path))
        let session = ProfileSession(
            profile: opened.profile, vault: SilentSecretService(), backend: .secretService, lock: opened.lock,
            connection: ProviderConnection(
                userAgent: "authvault-test", proxy: .init(), now: { Date().timeIntervalSince1970 },
                clock: ServerClock(), trace: .off, browserHost: .unknown),
            refreshesInBackground: false, devicePolicy: nil)
        let input = GivenInput("correct horse\n")
        let answers = Answers(piped: [.password], input: input, prompter: NoPrompter())
        var signIn = UserPoolSignIn(session: session, answers: answers, choices: SignInChoices()) { _ in }
        do {
            _ = try await signIn.run(username: "alice", flow: .password)
            Issue.record("signed in without a vault")
        } catch {
            guard case .failed(let cause, .useFileInstead) = error else {
                Issue.record("expected the vault's failure, got \(error)")
                return
            }
            #expect(cause.underlying as? VaultError == SilentSecretService.silence)
            #expect(cause.name == "VaultError.timedOut")
            #expect(!error.description.contains("in progress"), "\(error)")
        }
        #expect(input.nextLine() != nil, "the password was never read")
    }
}
