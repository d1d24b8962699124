import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `Application.configure` in-process: the discovery document read before anything is written, the settings given
/// applied after it, the profile checked as a whole, and a profile on `auto` given its vault backend once.
@Suite struct ConfigureUseCaseTests {
    /// A home of its own, with no Secret Service to find (no session bus): `auto` comes to the encrypted file.
    private func application(in home: TemporaryDirectory) -> Application {
        Application(
            environment: EnvironmentVariables([
                "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + home.appending("no-bus"),
            ]))
    }

    private func pool(_ settings: inout ProfileSettings) throws(ConfigError) {
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "client1"
    }

    @Test func aNewProfileIsWrittenAndItsAutoVaultChosenOnce() async throws {
        let home = try TemporaryDirectory()
        let application = application(in: home)
        let first = try await application.configure(ProfileConfigurationChange(profile: "work", edit: pool))
        #expect(first.created && first.path == application.configPath && first.discoveredFrom == nil)
        #expect(first.chosenBackend == .file)
        #expect(try application.configuration().profiles["work"]?.userPoolId == "eu-west-1_AbC123")
        let again = try await application.configure(
            ProfileConfigurationChange(profile: "work") { settings throws(ConfigError) in
                settings.scopes = ["openid"]
            })
        #expect(!again.created && again.chosenBackend == nil, "the backend is chosen once")
    }

    @Test func aSettingThatFailsItsCheckWritesNothing() async throws {
        let home = try TemporaryDirectory()
        let application = application(in: home)
        await #expect {
            try await application.configure(
                ProfileConfigurationChange(profile: "work") { settings throws(ConfigError) in
                    settings.clientId = "client1"
                })
        } throws: { error in
            guard case .configuration(.incomplete(profile: "work", _))? = error as? ApplicationError else {
                return false
            }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: application.configPath))
    }

    /// Plain http to a host that is not loopback is a setting's error, naming the option; nothing is fetched or written.
    @Test func aDiscoveryURLOffLoopbackOverPlainHTTPIsRefusedBeforeFetching() async throws {
        let home = try TemporaryDirectory()
        let application = application(in: home)
        await #expect {
            try await application.configure(
                ProfileConfigurationChange(profile: "work", discoveryURL: "http://idp.example.com", edit: pool))
        } throws: { error in
            guard case .configuration(.invalidValue(option: "oidc-discovery", _, _))? = error as? ApplicationError
            else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: application.configPath))
    }

    @Test func aDiscoveryDocumentThatCannotBeFetchedChangesNothing() async throws {
        let home = try TemporaryDirectory()
        let application = application(in: home)
        _ = try await application.configure(ProfileConfigurationChange(profile: "work", edit: pool))
        let before = try String(contentsOfFile: application.configPath, encoding: .utf8)
        let closed = FreeLoopbackPorts.run(of: 1)[0]
        let change = ProfileConfigurationChange(profile: "work", discoveryURL: "http://127.0.0.1:\(closed)") {
            (_: inout ProfileSettings) throws(ConfigError) in
        }
        await #expect { try await application.configure(change) } throws: { error in
            guard case .discovery(let url, _)? = error as? ApplicationError else { return false }
            return url == "http://127.0.0.1:\(closed)"
        }
        #expect(try String(contentsOfFile: application.configPath, encoding: .utf8) == before)
    }

    /// An OpenID provider's document gives the endpoints, issuer and JWKS; a setting given alongside wins.
    @Test func theDiscoveredEndpointsAreAdoptedAndAGivenSettingWins() async throws {
        let provider = try await OIDCProviderMock.start()
        let home = try TemporaryDirectory()
        let application = application(in: home)
        let done = try await application.configure(
            ProfileConfigurationChange(profile: "idp", discoveryURL: provider.discoveryURL) {
                settings throws(ConfigError) in
                settings.clientId = "client1"
                settings.jwksURL = "http://127.0.0.1:1/keys"
            })
        #expect(done.discoveredFrom == provider.issuer)
        let settings = try #require(try application.configuration().profiles["idp"])
        #expect(settings.issuer == provider.issuer)
        #expect(settings.oauthEndpoints?.authorization?.hasPrefix(provider.issuer) == true)
        #expect(settings.jwksURL == "http://127.0.0.1:1/keys")
    }
}
