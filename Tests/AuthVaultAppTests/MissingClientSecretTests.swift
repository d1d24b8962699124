import CognitoAuth
import Testing

@testable import AuthVaultApp

/// A machine profile without its client secret fails with a reason of its own, which the command line matches by
/// case (never by its message) to name the option that stores the secret; nothing is sent.
@Suite struct MissingClientSecretTests {
    @Test func noSecretIsATypedReason() async throws {
        var settings = ProfileSettings()
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "machine1"
        settings.grant = .clientCredentials
        settings.hostedUI = "https://ci.auth.eu-west-1.amazoncognito.com"
        let authority = ProfileAuthority(
            profile: try ResolvedProfile(name: "ci", settings: settings), userAgent: "test"
        ) { nil }
        await #expect(throws: OAuthError.missingClientSecret) { try await authority.clientCredentialsClient() }
        await #expect(throws: CognitoError.missingClientSecret) { try await authority.machineToken() }
        #expect(!CognitoError.missingClientSecret.description.contains("authvault"), "a reason, not a command")
    }
}
