import AuthCrypto
import AuthStore
import Foundation
import TestSupport
import Testing
import TokenVault
import TokenVerification

@testable import AuthVaultApp

/// A profile's session built in code (`ProfileSession.open(profile:settings:vault:)`): no configuration file, no
/// environment; the vault chosen by the program, every file of it in the directory it names; settings checked as
/// `configure` checks them, with typed errors and nothing written.
@Suite struct EmbeddedProfileTests {
    static let passphrase = "correct horse battery"

    func settings(endpoint: String? = nil) -> ProfileSettings {
        .cognito(userPoolId: "eu-west-1_AbC123", clientId: "client1", endpoint: endpoint)
    }

    func fileVault(_ directory: String, passphrase: String = Self.passphrase) -> VaultSettings {
        .encryptedFile(directory: directory, passphrase: .fixed(SecretBytes(utf8: passphrase)))
    }

    /// Every file below `root`, as paths relative to it.
    func files(under root: String) -> [String] {
        let paths = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return paths.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// Which case a state is, without its payload.
    func kind(_ state: AuthState) -> String {
        switch state {
        case .bootstrapping: "bootstrapping"
        case .signedOut: "signedOut"
        case .signingIn: "signingIn"
        case .awaitingChallenge: "awaitingChallenge"
        case .signedIn: "signedIn"
        case .refreshing: "refreshing"
        case .needsSignIn: "needsSignIn"
        case .vaultUnavailable: "vaultUnavailable"
        case .signingOut: "signingOut"
        }
    }

    @Test func theFileVaultIsTheProgramsDirectoryWithTheKeyCacheOffAndTheRecordBoundToThePool() async throws {
        let root = try TemporaryDirectory()
        let directory = root.appending("vault")
        let session = try ProfileSession.open(profile: "app", settings: settings(), vault: fileVault(directory))
        #expect(session.backend == .file && session.profile.name == "app")
        let vault = try #require(session.vault as? EncryptedFileVault)
        #expect(vault.directory == directory)
        #expect(vault.changeStamps.directory == directory + "/revisions")
        #expect(vault.bindings == ["app": ProfileBinding(userPoolId: "eu-west-1_AbC123", clientId: "client1")])
        #expect(session.lock.path == directory + "/locks/app.lock")
        #expect(await vault.status().details["keyCache"] == "disabled", "no key goes to the user keyring unless asked")
        #expect(
            session.profile.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123",
            "derived as for a configured profile")
        #expect(!FileManager.default.fileExists(atPath: directory), "opening writes nothing")
    }

    @Test func theSecretServiceKeepsTheLockAndChangeStampsInTheStateDirectory() throws {
        let root = try TemporaryDirectory()
        let session = try ProfileSession.open(settings: settings(), vault: .secretService(stateDirectory: root.path))
        #expect(session.backend == .secretService && session.profile.name == "default")
        let vault = try #require(session.vault as? SecretServiceVault)
        #expect(vault.changeStamps.directory == root.path + "/revisions")
        #expect(vault.bindings == ["default": ProfileBinding(userPoolId: "eu-west-1_AbC123", clientId: "client1")])
        #expect(!vault.allowPrompt, "nobody is asked to unlock the collection")
        #expect(session.lock.path == root.path + "/locks/default.lock")
    }

    /// One of the settings, the profile name or the vault directory, made unusable.
    enum Unusable: CaseIterable, Sendable {
        case noClient, noPool, region, userPoolId, plainEndpoint, jwksURL, redirectURI, relativeDirectory, profileName

        /// The option the error names.
        var option: String {
            switch self {
            case .noClient: "client-id"
            case .noPool, .userPoolId: "user-pool-id"
            case .region: "region"
            case .plainEndpoint: "endpoint"
            case .jwksURL: "jwks-url"
            case .redirectURI: "redirect-uri"
            case .relativeDirectory: "vault-directory"
            case .profileName: "profile"
            }
        }

        func spoil(_ settings: inout ProfileSettings, profile: inout String, directory: inout String) {
            switch self {
            case .noClient: settings.clientId = nil
            case .noPool: settings.userPoolId = nil
            case .region: settings.region = "Ireland"
            case .userPoolId: settings.userPoolId = "AbC123"
            case .plainEndpoint: settings.endpoint = "http://cognito.example.com/"
            case .jwksURL: settings.jwksURL = "not a url"
            case .redirectURI: settings.redirectURIs = ["https://example.com/callback"]
            case .relativeDirectory: directory = "relative/vault"
            case .profileName: profile = "../elsewhere"
            }
        }
    }

    /// A setting that cannot be used is a typed configuration error naming it, and nothing is written.
    @Test(arguments: Unusable.allCases)
    func anUnusableSettingIsATypedErrorAndNothingIsWritten(_ unusable: Unusable) throws {
        let root = try TemporaryDirectory()
        var settings = settings()
        var profile = "default"
        var directory = root.appending("vault")
        unusable.spoil(&settings, profile: &profile, directory: &directory)
        let option = unusable.option
        #expect {
            try ProfileSession.open(profile: profile, settings: settings, vault: fileVault(directory))
        } throws: { error in
            switch error as? ApplicationError {
            case .configuration(.incomplete(_, let missing))?: missing == "--" + option
            case .configuration(.invalidValue(let named, _, _))?: named == option
            default: false
            }
        }
        #expect(files(under: root.path).isEmpty)
    }

    /// Against moto: sign in with a password, observe the states, read the token's `sub`, reopen the session from
    /// the vault in a second store, sign out; every file is in the vault's directory.
    @Test func signInObserveReopenAndSignOutWithEveryFileInTheVaultDirectory() async throws {
        let pool = try await CognitoPool.make()
        let password = "Embedded-\(UUID().uuidString.prefix(8))!"
        try await pool.createUser("embedded", password: password)
        let root = try TemporaryDirectory()
        let directory = root.appending("vault")
        let settings = ProfileSettings.cognito(
            userPoolId: pool.poolId, clientId: pool.clientId, endpoint: pool.moto.endpoint,
            jwksURL: pool.jwksURL)
        let session = try ProfileSession.open(settings: settings, vault: fileVault(directory))
        let states = await session.states()
        let observed = Task {
            var kinds: [String] = []
            for await state in states {
                kinds.append(kind(state))
                if kinds.contains("signingOut"), case .signedOut = state { break }
            }
            return kinds
        }

        guard
            case .signedIn(let summary) = try await session.signIn(
                username: "embedded", password: SecretBytes(utf8: password))
        else {
            Issue.record("the sign-in asked a challenge")
            return
        }
        #expect(summary.user == "embedded")
        let subject = Claims(unverifiedPayloadOf: try await session.validAccessToken())?.subject
        let poolSubject = try await pool.subject(of: "embedded")
        #expect(subject != nil && subject == poolSubject)

        // A second store on the same directory, as the next run of the program builds it, reads the session.
        let reopened = try ProfileSession.open(settings: settings, vault: fileVault(directory))
        #expect(Claims(unverifiedPayloadOf: try await reopened.validAccessToken())?.subject == subject)
        let wrongPassphrase = try ProfileSession.open(
            settings: settings, vault: fileVault(directory, passphrase: "wrong"))
        await #expect { try await wrongPassphrase.validAccessToken() } throws: { error in
            guard case .vaultLocked(let cause, _)? = error as? ApplicationError else { return false }
            return cause.underlying as? VaultError == .wrongPassphrase
        }

        // moto has no RevokeToken (HTTP 500): the sign-out says so, and clears the local session all the same.
        let result = await session.signOut()
        #expect(result.revoked == false && result.remoteFailures.count == 1)
        #expect(
            await observed.value == ["bootstrapping", "signedOut", "signingIn", "signedIn", "signingOut", "signedOut"])
        let afterSignOut = try ProfileSession.open(settings: settings, vault: fileVault(directory))
        await #expect { try await afterSignOut.validAccessToken() } throws: { error in
            guard case .signInRequired? = error as? ApplicationError else { return false }
            return true
        }
        let written = files(under: root.path)
        #expect(written.contains("vault/vault.key") && written.allSatisfy { $0.hasPrefix("vault/") }, "\(written)")
    }
}
