import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// The enhanced flow against moto's identity pools, behind a proxy that checks the `Logins` map as Cognito does
/// (moto checks none): a signed-in user's ID token gets a stable identity and credentials; a login of another
/// pool, or no ID token at all, is refused.
@Suite struct IdentityPoolMotoTests {
    struct Fixture {
        let users: MotoFixture
        let proxy: IdentityPoolProxy
        let client: IdentityPoolClient
        let provider: String

        static func make(allowGuests: Bool = false) async throws -> Fixture {
            let users = try await MotoFixture.make(withSecret: false)
            let provider = "cognito-idp.us-east-1.amazonaws.com/\(users.poolId)"
            let pool = try await users.moto.call(
                "CreateIdentityPool",
                [
                    "IdentityPoolName": "pool\(UUID().uuidString.prefix(8))",
                    "AllowUnauthenticatedIdentities": allowGuests,
                    "CognitoIdentityProviders": [["ProviderName": provider, "ClientId": users.clientId]],
                ], service: "AWSCognitoIdentityService")
            let poolID = try IdentityPoolID(try #require(pool["IdentityPoolId"] as? String))
            let proxy = try await IdentityPoolProxy.start(
                moto: users.moto, provider: provider, clientId: users.clientId,
                jwksURL: users.moto.jwksURL(poolId: users.poolId))
            let client = try IdentityPoolClient(
                configuration: IdentityPoolConfiguration(poolID: poolID, endpoint: proxy.endpoint),
                transport: MotoFixture.transport)
            return Fixture(users: users, proxy: proxy, client: client, provider: provider)
        }

        func signedInLogin() async throws -> IdentityProviderLogin {
            try await users.createUser("dana", password: MotoTests.password)
            let tokens = try #require(
                try await users.client.signIn(username: "dana", password: SecretBytes(utf8: MotoTests.password)).tokens)
            return .userPool(region: "us-east-1", userPoolId: users.poolId, idToken: try #require(tokens.idToken))
        }
    }

    @Test func aSignedInUserGetsAnIdentityAndCredentials() async throws {
        let fixture = try await Fixture.make()
        let login = try await fixture.signedInLogin()
        let identityId = try await fixture.client.identityId(login: login)
        #expect(identityId.hasPrefix("us-east-1:"))
        let credentials = try await fixture.client.credentials(identityId: identityId, login: login)
        #expect(
            !credentials.accessKeyId.isEmpty && !credentials.secretAccessKey.text.isEmpty
                && !credentials.sessionToken.text.isEmpty)
        #expect(credentials.expiresAt > Date().timeIntervalSince1970)
        #expect(credentials.identityId == identityId)
        #expect(
            try await fixture.proxy.records() == [
                .init(operation: "GetId", provider: fixture.provider, refused: nil),
                .init(operation: "GetCredentialsForIdentity", provider: fixture.provider, refused: nil),
            ])
    }

    @Test func anAccessTokenOrAnotherPoolsNameIsRefused() async throws {
        let fixture = try await Fixture.make()
        let login = try await fixture.signedInLogin()
        let tokens = try #require(
            try await fixture.users.client.signIn(username: "dana", password: SecretBytes(utf8: MotoTests.password))
                .tokens)
        let accessToken = IdentityProviderLogin(providerName: fixture.provider, idToken: tokens.accessToken)
        let otherPool = IdentityProviderLogin.userPool(
            region: "us-east-1", userPoolId: "us-east-1_Other", idToken: login.idToken)
        for wrong in [accessToken, otherPool] {
            do {
                _ = try await fixture.client.identityId(login: wrong)
                Issue.record("\(wrong.providerName) must be refused")
            } catch {
                guard case .identityNotAuthorized(let message) = error else { throw error }
                expectNoSecrets(in: error.description + message, [tokens.accessToken.text, login.idToken.text])
            }
        }
        #expect(
            try await fixture.proxy.records().map(\.refused) == [
                "the login is not an ID token", "the Logins map does not name exactly the provider",
            ])
    }

    @Test func aGuestGetsCredentialsWithoutALogin() async throws {
        let fixture = try await Fixture.make(allowGuests: true)
        let identityId = try await fixture.client.identityId(login: nil)
        let credentials = try await fixture.client.credentials(identityId: identityId, login: nil)
        #expect(credentials.identityId == identityId)
        #expect(try await fixture.proxy.records().map(\.provider) == [nil, nil])
    }
}
