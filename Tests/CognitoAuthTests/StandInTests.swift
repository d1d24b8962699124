import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// The operations moto lacks, against the scripted stand-in, which checks each request's shape (target,
/// Content-Type, documented fields only, ClientSecret or SecretHash exactly when the client has a secret).
@Suite struct StandInTests {
    static let poolId = "us-east-1_StandIn1"
    static let clientId = "standinclient42"
    static let secret = "stand-in-client-secret-abcdef"

    struct Setup {
        let standIn: CognitoStandIn
        let client: CognitoClient
        let initialRefreshToken = SecretBytes(utf8: "initial-refresh-token")
    }

    func setup(withSecret: Bool, clientSecret: String? = nil) async throws -> Setup {
        let configuration = CognitoStandIn.Configuration(
            poolId: Self.poolId, clientId: Self.clientId, clientSecret: withSecret ? Self.secret : nil,
            refreshToken: "initial-refresh-token",
            idToken: try TestTokens.idToken(
                poolId: Self.poolId, clientId: Self.clientId, username: "lena", subject: "sub-lena",
                email: "lena@example.com"),
            accessToken: try TestTokens.accessToken(
                poolId: Self.poolId, clientId: Self.clientId, username: "lena", subject: "sub-lena"),
            jwks: TestTokens.jwks, users: ["lena"])
        let standIn = try await CognitoStandIn.start(configuration)
        let client = try CognitoClient.forTests(
            poolId: Self.poolId, clientId: Self.clientId,
            clientSecret: clientSecret ?? (withSecret ? Self.secret : nil), endpoint: standIn.endpoint,
            jwksURL: standIn.jwksURL, transport: MotoFixture.transport, rotatesRefreshTokens: true)
        return Setup(standIn: standIn, client: client)
    }

    /// Each GetTokensFromRefreshToken returns a new refresh token; reusing a rotated-out one ends the session.
    @Test(arguments: [false, true])
    func rotationReturnsANewRefreshTokenAndReuseEndsTheSession(withSecret: Bool) async throws {
        let setup = try await setup(withSecret: withSecret)
        let first = try await setup.client.refresh(refreshToken: setup.initialRefreshToken, username: "lena")
        #expect(first.refreshToken != setup.initialRefreshToken)
        let rotated = first.refreshToken.text.hasPrefix("rotated-")  // outside #expect, which would print the token
        #expect(rotated, "the stand-in's rotated refresh token")
        #expect(first.identity == VerifiedIdentity(username: "lena", subject: "sub-lena", email: "lena@example.com"))
        let second = try await setup.client.refresh(refreshToken: first.refreshToken, username: "lena")
        #expect(second.refreshToken != first.refreshToken)

        do {
            _ = try await setup.client.refresh(refreshToken: setup.initialRefreshToken, username: "lena")
            Issue.record("a rotated-out refresh token must be refused")
        } catch {
            #expect(error == .refreshTokenReuse(message: "Refresh token has already been used."))
            #expect(error.requiresSignIn && !error.isRetryable)
            expectNoSecrets(in: error.description, [setup.initialRefreshToken.text, Self.secret])
        }
        #expect(try await setup.standIn.operations() == Array(repeating: "GetTokensFromRefreshToken", count: 3))
    }

    @Test(arguments: [false, true])
    func revokedRefreshTokenNoLongerRefreshes(withSecret: Bool) async throws {
        let setup = try await setup(withSecret: withSecret)
        try await setup.client.revoke(refreshToken: setup.initialRefreshToken)
        try await setup.client.revoke(refreshToken: setup.initialRefreshToken)  // revoking twice is not an error
        do {
            _ = try await setup.client.refresh(refreshToken: setup.initialRefreshToken, username: "lena")
            Issue.record("a revoked refresh token must be refused")
        } catch {
            #expect(error == .refreshTokenRejected(message: "Refresh Token has been revoked"))
            #expect(error.requiresSignIn)
        }
        #expect(try await setup.standIn.operations() == ["RevokeToken", "RevokeToken", "GetTokensFromRefreshToken"])
    }

    @Test(arguments: [false, true])
    func resendConfirmationCode(withSecret: Bool) async throws {
        let setup = try await setup(withSecret: withSecret)
        let delivery = try await setup.client.resendConfirmationCode(username: "lena")
        #expect(delivery == CodeDeliveryDetails(destination: "a***@e***", medium: "EMAIL", attributeName: "email"))
        await #expect(throws: CognitoError.userNotFound(message: "Username/client id combination not found.")) {
            try await setup.client.resendConfirmationCode(username: "nobody")
        }
    }

    /// The stand-in really checks the secret: a client configured with the wrong one is refused everywhere.
    @Test func wrongClientSecretIsRefused() async throws {
        let setup = try await setup(withSecret: true, clientSecret: "a-wrong-secret")
        await #expect(throws: CognitoError.notAuthorized(message: "Client secret is wrong or missing.")) {
            try await setup.client.revoke(refreshToken: setup.initialRefreshToken)
        }
        await #expect(throws: CognitoError.self) { try await setup.client.resendConfirmationCode(username: "lena") }
        await #expect(throws: CognitoError.refreshTokenRejected(message: "Client secret is wrong or missing.")) {
            try await setup.client.refresh(refreshToken: setup.initialRefreshToken, username: "lena")
        }
    }
}
