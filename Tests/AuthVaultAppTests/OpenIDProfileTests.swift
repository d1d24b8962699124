import Foundation
import TestSupport
import Testing

@testable import AuthVaultApp

/// A profile of an OpenID provider other than Cognito: an issuer (from discovery) and a client, no user pool.
@Suite struct OpenIDProfileTests {
    static let issuer = "https://id.example.test/realms/main"

    func settings(identityProvider: String? = nil) -> ProfileSettings {
        var settings = ProfileSettings()
        settings.issuer = Self.issuer
        settings.jwksURL = Self.issuer + "/protocol/openid-connect/certs"
        settings.clientId = "authvault-cli"
        settings.identityProvider = identityProvider
        return settings
    }

    @Test func anIssuerAndAClientMakeACompleteProfileWithoutUserPoolParts() throws {
        let profile = try ResolvedProfile(name: "idp", settings: settings(identityProvider: "Google"))
        #expect(profile.userPoolId == nil && profile.region == nil && profile.endpoint == nil)
        #expect(profile.issuer == Self.issuer)
        #expect(profile.jwksURL == Self.issuer + "/protocol/openid-connect/certs")
        #expect(profile.identityProvider == nil, "identity_provider is Cognito's, even when set")

        var cognito = settings()
        cognito.userPoolId = "eu-west-1_AbC123"
        #expect(try ResolvedProfile(name: "pool", settings: cognito).identityProvider == nil, "no default provider")
        cognito.identityProvider = "Google"
        #expect(try ResolvedProfile(name: "pool", settings: cognito).identityProvider == "Google")
    }

    @Test func withoutAnIssuerOrAPoolTheProfileIsIncomplete() {
        var neither = settings()
        neither.issuer = nil
        #expect(throws: ConfigError.incomplete(profile: "idp", missing: "--user-pool-id")) {
            try ResolvedProfile(name: "idp", settings: neither)
        }
        var noClient = settings()
        noClient.clientId = nil
        #expect(throws: ConfigError.incomplete(profile: "idp", missing: "--client-id")) {
            try ResolvedProfile(name: "idp", settings: noClient)
        }
    }

    @Test func theSecretServiceItemIsBoundToTheIssuerInThePoolsPlace() throws {
        let directory = try TemporaryDirectory()
        let application = Application(environment: EnvironmentVariables(["HOME": directory.path]))
        var cognito = settings()
        cognito.userPoolId = "eu-west-1_AbC123"
        let factory = application.vaults(for: ConfigFile(profiles: ["idp": settings(), "pool": cognito]))
        let bindings = try factory.secretServiceVault().bindings
        #expect(bindings["idp"] == .init(userPoolId: Self.issuer, clientId: "authvault-cli"))
        #expect(bindings["pool"] == .init(userPoolId: "eu-west-1_AbC123", clientId: "authvault-cli"))
    }
}
