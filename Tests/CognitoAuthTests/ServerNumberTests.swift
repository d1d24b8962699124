import AuthCrypto
import Foundation
import HTTPTransport
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// Numbers a server states are used only within `ServerTime`'s bounds: an `expires_in`, an identity pool's
/// `Expiration` or a token's `exp` that is huge, negative or not a number is a typed error, never a value that a
/// later conversion to whole seconds traps on.
@Suite struct ServerNumberTests {
    static let expiresInRefused = OAuthError.invalidResponse(
        operation: OAuthOperation.clientCredentials.rawValue,
        reason: "expires_in is not a number of seconds from 0 to 315360000")

    @Test(arguments: [1e300, -5] as [Double])
    func anExpiresInOutOfRangeIsATypedError(seconds: Double) async throws {
        let transport = URLStubTransport { _ in
            URLStubTransport.json(["access_token": "opaque-token", "token_type": "Bearer", "expires_in": seconds])
        }
        await #expect(throws: Self.expiresInRefused) {
            try await ClientCredentialsClientTests.client(transport: transport).token()
        }
    }

    @Test(arguments: ["NaN", "inf", "soon"])
    func anExpiresInStringThatIsNoLifetimeIsATypedError(text: String) async throws {
        let transport = URLStubTransport { _ in
            URLStubTransport.json(["access_token": "opaque-token", "token_type": "Bearer", "expires_in": text])
        }
        await #expect(throws: Self.expiresInRefused) {
            try await ClientCredentialsClientTests.client(transport: transport).token()
        }
    }

    /// A signed token whose `exp` is 1e300 would pass the expiry check and trap where it is written as whole seconds.
    @Test func aTokenWhoseExpiryIsNoTimeIsRejected() async throws {
        let now = Int(Date().timeIntervalSince1970)
        let token = try TestTokens.key.mintJWT(claims: [
            "iss": ClientCredentialsClientTests.issuer, "sub": "ci-client", "client_id": "ci-client",
            "token_use": "access", "iat": now, "exp": 1e300,
        ])
        let transport = URLStubTransport(jwks: TestTokens.jwks) { _ in
            URLStubTransport.json(["access_token": token, "token_type": "Bearer", "expires_in": 3600])
        }
        await #expect(throws: OAuthError.tokenRejected(.timeOutOfRange("exp"))) {
            try await ClientCredentialsClientTests.client(transport: transport).token()
        }
        #expect(
            Claims(unverifiedPayloadOf: SecretBytes(utf8: token))?.expiresAt == nil,
            "a stored token's absurd exp is not read either")
        #expect(TokenError.expired(at: 1e300).description == "The token expired at Unix time 1e+300.")
    }

    @Test(arguments: [1e300, -5] as [Double])
    func identityPoolCredentialsThatExpireAtNoTimeAreATypedError(expiration: Double) async throws {
        let transport = StubTransport(jwks: Data()) { _, _ in
            IdentityPoolClientTests.credentialsAnswer(expiration: expiration)
        }
        await #expect(
            throws: CognitoError.invalidResponse(
                operation: "GetCredentialsForIdentity",
                reason: "the credentials' expiry is not a time between 1970 and 9999")
        ) {
            try await IdentityPoolClientTests().client(transport).credentials(
                identityId: IdentityPoolClientTests.identityId,
                login: IdentityPoolClientTests.login)
        }
    }
}
