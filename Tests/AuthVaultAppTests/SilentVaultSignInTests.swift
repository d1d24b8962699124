import AuthStore
import CognitoAuth
import Foundation
import SystemPlumbing
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

    /// A session of `settings` whose vault is the silent Secret Service; its endpoints are on a port nobody listens
    /// on, so a sign-in that went on would fail with the network instead.
    private func silentSession(_ settings: ProfileSettings, in root: TemporaryDirectory) throws -> ProfileSession {
        let opened = try ProfileSession.open(
            profile: "work", settings: settings, vault: .secretService(stateDirectory: root.path))
        return ProfileSession(
            profile: opened.profile, vault: SilentSecretService(), backend: .secretService, lock: opened.lock,
            connection: ProviderConnection(
                userAgent: "authvault-test", proxy: .init(), now: { Date().timeIntervalSince1970 },
                clock: ServerClock(), trace: .off, browserHost: .unknown),
            refreshesInBackground: false, devicePolicy: nil)
    }

    /// An OpenID provider with a browser sign-in and the device grant, at a port nobody listens on.
    private static var providerSettings: ProfileSettings {
        var settings = ProfileSettings.openIDProvider(issuer: "http://127.0.0.1:9", clientId: "client1")
        var endpoints = OAuthEndpointSettings()
        endpoints.authorization = "http://127.0.0.1:9/authorize"
        endpoints.token = "http://127.0.0.1:9/token"
        endpoints.deviceAuthorization = "http://127.0.0.1:9/device"
        settings.oauthEndpoints = endpoints
        settings.redirectURIs = ["http://127.0.0.1:9/callback"]
        return settings
    }

    private func expectSilence(_ error: ApplicationError) {
        guard case .failed(let cause, .useFileInstead) = error else {
            Issue.record("expected the vault's failure, got \(error)")
            return
        }
        #expect(cause.underlying as? VaultError == SilentSecretService.silence)
    }

    /// A browser or device sign-in that must fail as the silent vault's failure.
    private func expectSilence(_ signIn: () async throws -> Void) async {
        do {
            try await signIn()
            Issue.record("the sign-in went on for a session that cannot be kept")
        } catch {
            switch error {
            case BrowserSignInError.failed(let failure), DeviceSignInError.failed(let failure): expectSilence(failure)
            default: Issue.record("\(error)")
            }
        }
    }

    @Test func aBrowserSignInOnAVaultThatDoesNotAnswerSaysSoBeforeTheBrowser() async throws {
        let root = try TemporaryDirectory()
        let signIn = BrowserSignIn(
            session: try silentSession(Self.providerSettings, in: root), identityProvider: nil, timeout: .seconds(1))
        await expectSilence { _ = try await signIn.begin() }
    }

    @Test func aDeviceSignInOnAVaultThatDoesNotAnswerSaysSoBeforeTheCode() async throws {
        let root = try TemporaryDirectory()
        let signIn = DeviceSignIn(session: try silentSession(Self.providerSettings, in: root))
        let shown = Locked(false)
        await expectSilence { _ = try await signIn.run { _ in shown.withLock { $0 = true } } }
        #expect(!shown.withLock { $0 }, "a code was shown")
    }

    @Test func aSignInOnAVaultThatDoesNotAnswerIsTheVaultsFailure() async throws {
        let root = try TemporaryDirectory()
        // Cognito on a port nobody listens on: the sign-in must fail before it asks.
        let session = try silentSession(
            .cognito(userPoolId: "eu-west-1_AbC123", clientId: "client1", endpoint: "http://127.0.0.1:9"), in: root)
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
