import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// Every operation moto implements, against moto's server, with and without an app client secret. moto does not
/// check the SRP proof or most SECRET_HASHes (SRPTests and CognitoClientRequestTests prove those), but it does
/// check SECRET_HASH on SRP start, MFA answers and refresh, the TOTP codes, passwords on the password flow, and
/// it keeps sessions, tokens and sign-outs.
@Suite struct MotoTests {
    static let password = "Corr3ct-Horse!"

    @Test(arguments: [false, true])
    func srpAndPasswordSignIn(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        try await fixture.createUser("alice", password: Self.password, email: "alice@example.com")
        let subject = try await fixture.subject(of: "alice")

        for flow in AuthFlow.allCases {
            let step = try await fixture.client.signIn(
                username: "alice", password: SecretBytes(utf8: Self.password), flow: flow)
            let tokens = try #require(step.tokens, "\(flow) signs in without a challenge")
            #expect(
                tokens.identity == VerifiedIdentity(username: "alice", subject: subject, email: "alice@example.com"))
            let now = Date().timeIntervalSince1970
            #expect(abs(tokens.accessTokenExpiresAt - now - 3600) < 60)
            #expect(abs((tokens.idTokenExpiresAt ?? 0) - now - 3600) < 60)
            expectNoSecrets(
                in: "\(step)",
                [tokens.idToken?.text ?? "", tokens.accessToken.text, tokens.refreshToken.text, Self.password])
        }

        for exchange in fixture.recorder.recorded {
            #expect(exchange.request.method == "POST")
            #expect(exchange.request.url == fixture.moto.endpoint)
            #expect(exchange.request.headerValue("Content-Type") == "application/x-amz-json-1.1")
            #expect(
                exchange.request.headerValue("X-Amz-Target")?.hasPrefix("AWSCognitoIdentityProviderService.") == true)
        }
        #expect(
            fixture.recorder.recorded.compactMap { $0.request.headerValue("X-Amz-Target") } == [
                "AWSCognitoIdentityProviderService.InitiateAuth",
                "AWSCognitoIdentityProviderService.RespondToAuthChallenge",
                "AWSCognitoIdentityProviderService.InitiateAuth",
            ])
    }

    @Test(arguments: [false, true])
    func newPasswordRequiredForAnAdminCreatedUser(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        try await fixture.createUser("bob", temporaryPassword: "Temp-Pa55word!")
        let challenge = try #require(
            try await fixture.client.signIn(username: "bob", password: SecretBytes(utf8: "Temp-Pa55word!")).challenge)
        #expect(challenge.kind == .newPasswordRequired)
        #expect(challenge.username == "bob")
        expectNoSecrets(in: challenge.description, [challenge.session.text])

        await #expect(
            throws: CognitoError.invalidPassword(
                message: "The provided password does not confirm to the configured password policy")
        ) {
            try await fixture.client.respond(to: challenge, with: .newPassword(SecretBytes(utf8: "short")))
        }
        let step = try await fixture.client.respond(
            to: challenge, with: .newPassword(SecretBytes(utf8: "N3w-Passw0rd!"), attributes: ["name": "Bob"]))
        #expect(step.tokens?.identity.username == "bob")
        // moto checks the password on this flow: the new one is in place.
        let again = try await fixture.client.signIn(
            username: "bob", password: SecretBytes(utf8: "N3w-Passw0rd!"), flow: .userPassword)
        #expect(again.tokens != nil)
    }

    /// MFA_SETUP (AssociateSoftwareToken and VerifySoftwareToken under the session), then SOFTWARE_TOKEN_MFA on the
    /// next sign-in; wrong codes are retried with the same challenge value. RFC 6238 codes from python.
    @Test(arguments: [false, true])
    func totpSetupThenTOTPSignIn(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret, totpRequired: true)
        try await fixture.createUser("carol", password: Self.password)
        let setupChallenge = try #require(
            try await fixture.client.signIn(username: "carol", password: SecretBytes(utf8: Self.password)).challenge)
        #expect(setupChallenge.kind == .mfaSetup)
        #expect(setupChallenge.mfaTypes == [.softwareToken])

        let setup = try await fixture.client.beginSoftwareTokenSetup(for: setupChallenge)
        #expect(setup.secret.base32.text == "asdfasdfasdf")
        #expect(
            setup.secret.provisioningURI(accountName: "carol@example.com", issuer: "Auth Vault").text
                == "otpauth://totp/Auth%20Vault%3Acarol%40example.com?secret=asdfasdfasdf&issuer=Auth%20Vault")
        let wrongCode = try await wrongTOTPCode()
        do {
            _ = try await fixture.client.respond(
                to: setup.challenge, with: .softwareTokenSetupCode(SecretBytes(utf8: wrongCode)))
            Issue.record("a wrong setup code must be refused")
        } catch {
            guard case .codeMismatch = error else { throw error }
            expectNoSecrets(in: error.description, [wrongCode, setup.challenge.session.text])
        }
        let enrolled = try await fixture.client.respond(
            to: setup.challenge,
            with: .softwareTokenSetupCode(
                SecretBytes(utf8: try await TOTPCode.current()), friendlyDeviceName: "phone"))
        #expect(enrolled.tokens?.identity.username == "carol")

        let mfa = try #require(
            try await fixture.client.signIn(username: "carol", password: SecretBytes(utf8: Self.password)).challenge)
        #expect(mfa.kind == .softwareTokenMFA)
        await #expect(throws: CognitoError.codeMismatch(message: "MFA Code Mismatch")) {
            try await fixture.client.respond(to: mfa, with: .code(SecretBytes(utf8: try await wrongTOTPCode())))
        }
        let signedIn = try await fixture.client.respond(
            to: mfa, with: .code(SecretBytes(utf8: try await TOTPCode.current())))
        #expect(signedIn.tokens?.identity.username == "carol")
    }

    /// A signed-in user adds an authenticator (AssociateSoftwareToken, VerifySoftwareToken with the access token),
    /// prefers it (SetUserMFAPreference), and from then on the password flow asks for its code.
    @Test(arguments: [false, true])
    func softwareTokenEnabledAfterSignIn(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        try await fixture.createUser("dave", password: Self.password)
        let tokens = try #require(
            try await fixture.client.signIn(username: "dave", password: SecretBytes(utf8: Self.password)).tokens)
        let secret = try await fixture.client.associateSoftwareToken(accessToken: tokens.accessToken)
        #expect(secret.base32.text == "asdfasdfasdf")
        await #expect(throws: CognitoError.codeMismatch(message: "Code mismatch (laptop)")) {
            try await fixture.client.verifySoftwareToken(
                accessToken: tokens.accessToken, code: SecretBytes(utf8: try await wrongTOTPCode()),
                friendlyDeviceName: "laptop")
        }
        try await fixture.client.verifySoftwareToken(
            accessToken: tokens.accessToken, code: SecretBytes(utf8: try await TOTPCode.current()))
        try await fixture.client.setMFAPreference(
            accessToken: tokens.accessToken, softwareToken: MFAPreference(enabled: true, preferred: true))

        let user = try await fixture.client.user(accessToken: tokens.accessToken)
        #expect(user.preferredMFA == .softwareToken)
        #expect(user.enabledMFA == [.softwareToken])

        let mfa = try #require(
            try await fixture.client.signIn(
                username: "dave", password: SecretBytes(utf8: Self.password), flow: .userPassword
            ).challenge)
        #expect(mfa.kind == .softwareTokenMFA)
        let step = try await fixture.client.respond(
            to: mfa, with: .code(SecretBytes(utf8: try await TOTPCode.current())))
        #expect(step.tokens != nil)
    }

    @Test(arguments: [false, true])
    func signUpThenConfirm(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        let result = try await fixture.client.signUp(
            username: "erin", password: SecretBytes(utf8: Self.password), attributes: ["email": "erin@example.com"])
        #expect(!result.userConfirmed)
        #expect(!result.userSub.isEmpty)
        await #expect(throws: CognitoError.userNotConfirmed(message: "User is not confirmed.")) {
            try await fixture.client.signIn(
                username: "erin", password: SecretBytes(utf8: Self.password), flow: .userPassword)
        }
        do {
            _ = try await fixture.client.signUp(username: "erin", password: SecretBytes(utf8: Self.password))
            Issue.record("a taken username must be refused")
        } catch {
            #expect(error == .usernameExists(message: "erin"))
        }
        do {
            _ = try await fixture.client.signUp(username: "frank", password: SecretBytes(utf8: "weakpass"))
            Issue.record("a weak password must be refused")
        } catch {
            guard case .invalidPassword = error else { throw error }
            expectNoSecrets(in: error.description, ["weakpass"])
        }
        try await fixture.client.confirmSignUp(username: "erin", code: SecretBytes(utf8: "123456"))
        let step = try await fixture.client.signIn(username: "erin", password: SecretBytes(utf8: Self.password))
        #expect(step.tokens?.identity.email == "erin@example.com")
    }

    @Test(arguments: [false, true])
    func forgotPasswordWithTheEmailedCode(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        try await fixture.createUser("gina", password: Self.password, email: "gina@example.com")
        let delivery = try await fixture.client.forgotPassword(username: "gina")
        #expect(delivery == CodeDeliveryDetails(destination: "g***@e***", medium: "EMAIL", attributeName: "email"))
        let code = try #require(
            fixture.recorder.lastResponse(to: "ForgotPassword")?.header("x-moto-forgot-password-confirmation-code"))

        do {
            try await fixture.client.confirmForgotPassword(
                username: "gina", code: SecretBytes(utf8: "moto-confirmation-code:000000"),
                newPassword: SecretBytes(utf8: "Res3t-Passw0rd!"))
            Issue.record("a wrong code must be refused")
        } catch {
            guard case .expiredCode = error else { throw error }
            expectNoSecrets(in: error.description, ["moto-confirmation-code:000000", "Res3t-Passw0rd!", code])
        }
        try await fixture.client.confirmForgotPassword(
            username: "gina", code: SecretBytes(utf8: code), newPassword: SecretBytes(utf8: "Res3t-Passw0rd!"))
        let step = try await fixture.client.signIn(
            username: "gina", password: SecretBytes(utf8: "Res3t-Passw0rd!"), flow: .userPassword)
        #expect(step.tokens != nil)
    }

    @Test(arguments: [false, true])
    func changePasswordAndGetUser(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        try await fixture.createUser("hank", password: Self.password, email: "hank@example.com")
        let tokens = try #require(
            try await fixture.client.signIn(username: "hank", password: SecretBytes(utf8: Self.password)).tokens)

        let user = try await fixture.client.user(accessToken: tokens.accessToken)
        #expect(user.username == "hank")
        #expect(user.attributes["email"] == "hank@example.com")
        #expect(user.attributes["sub"] == tokens.identity.subject)
        #expect(user.preferredMFA == nil)

        do {
            try await fixture.client.changePassword(
                accessToken: tokens.accessToken, previousPassword: SecretBytes(utf8: "Wr0ng-Passw0rd!"),
                proposedPassword: SecretBytes(utf8: "Chang3d-Passw0rd!"))
            Issue.record("a wrong previous password must be refused")
        } catch {
            guard case .notAuthorized = error else { throw error }
            expectNoSecrets(in: error.description, ["Wr0ng-Passw0rd!", "Chang3d-Passw0rd!", tokens.accessToken.text])
        }
        try await fixture.client.changePassword(
            accessToken: tokens.accessToken, previousPassword: SecretBytes(utf8: Self.password),
            proposedPassword: SecretBytes(utf8: "Chang3d-Passw0rd!"))
        await #expect(throws: CognitoError.notAuthorized(message: "Incorrect username or password.")) {
            try await fixture.client.signIn(
                username: "hank", password: SecretBytes(utf8: Self.password), flow: .userPassword)
        }
        #expect(
            try await fixture.client.signIn(
                username: "hank", password: SecretBytes(utf8: "Chang3d-Passw0rd!"), flow: .userPassword
            ).tokens != nil)
    }

    /// REFRESH_TOKEN_AUTH keeps the refresh token; after GlobalSignOut refresh ends the session and the access
    /// token no longer works with the API.
    @Test(arguments: [false, true])
    func refreshThenGlobalSignOut(withSecret: Bool) async throws {
        let fixture = try await MotoFixture.make(withSecret: withSecret)
        try await fixture.createUser("ivy", password: Self.password, email: "ivy@example.com")
        let tokens = try #require(
            try await fixture.client.signIn(username: "ivy", password: SecretBytes(utf8: Self.password)).tokens)

        let refreshed = try await fixture.client.refresh(
            refreshToken: tokens.refreshToken, username: tokens.identity.username)
        #expect(refreshed.refreshToken == tokens.refreshToken)
        #expect(refreshed.accessToken != tokens.accessToken)
        #expect(refreshed.identity == tokens.identity)

        try await fixture.client.globalSignOut(accessToken: refreshed.accessToken)
        do {
            _ = try await fixture.client.refresh(refreshToken: tokens.refreshToken, username: tokens.identity.username)
            Issue.record("refresh after a global sign-out must fail")
        } catch {
            #expect(error == .refreshTokenRejected(message: "Refresh Token has been revoked"))
            #expect(error.requiresSignIn)
            #expect(!error.isRetryable)
        }
        do {
            _ = try await fixture.client.user(accessToken: refreshed.accessToken)
            Issue.record("the signed-out access token must not work")
        } catch {
            guard case .notAuthorized = error else { throw error }
            #expect(!error.requiresSignIn, "only a refresh decides that the session is gone")
            expectNoSecrets(in: error.description, [refreshed.accessToken.text, tokens.accessToken.text])
        }
    }

    @Test func authenticationErrorsAreTypedAndFreeOfSecrets() async throws {
        let fixture = try await MotoFixture.make(withSecret: true)
        try await fixture.createUser("jack", password: Self.password)
        let wrongPassword = "Wr0ng-But-Secret!"

        await #expect(throws: CognitoError.userNotFound(message: "User does not exist.")) {
            try await fixture.client.signIn(
                username: "nobody", password: SecretBytes(utf8: wrongPassword), flow: .userPassword)
        }
        await #expect(throws: CognitoError.userNotFound(message: "User does not exist.")) {
            try await fixture.client.signIn(username: "nobody", password: SecretBytes(utf8: wrongPassword))
        }
        do {
            _ = try await fixture.client.signIn(
                username: "jack", password: SecretBytes(utf8: wrongPassword), flow: .userPassword)
            Issue.record("a wrong password must be refused")
        } catch {
            #expect(error == .notAuthorized(message: "Incorrect username or password."))
            expectNoSecrets(in: error.description, [wrongPassword])
        }
        try await fixture.moto.call("AdminDisableUser", ["UserPoolId": fixture.poolId, "Username": "jack"])
        await #expect(throws: CognitoError.notAuthorized(message: "User is disabled.")) {
            try await fixture.client.signIn(
                username: "jack", password: SecretBytes(utf8: Self.password), flow: .userPassword)
        }

        // A client with a wrong secret: moto names the bad SECRET_HASH in its message; it is blanked out.
        let wrongSecret = try CognitoClient.forTests(
            poolId: fixture.poolId, clientId: fixture.clientId, clientSecret: "not-the-secret",
            endpoint: fixture.moto.endpoint, jwksURL: fixture.moto.jwksURL(poolId: fixture.poolId),
            transport: MotoFixture.transport)
        do {
            _ = try await wrongSecret.signIn(username: "jack", password: SecretBytes(utf8: Self.password))
            Issue.record("a wrong SECRET_HASH must be refused")
        } catch {
            #expect(error == .notAuthorized(message: "<redacted>"))
        }
        let unknownClient = try CognitoClient.forTests(
            poolId: fixture.poolId, clientId: "no-such-client", endpoint: fixture.moto.endpoint,
            jwksURL: fixture.moto.jwksURL(poolId: fixture.poolId), transport: MotoFixture.transport)
        await #expect(throws: CognitoError.resourceNotFound(message: "no-such-client")) {
            try await unknownClient.signIn(username: "jack", password: SecretBytes(utf8: Self.password))
        }
        #expect(fixture.recorder.recorded.count == 4, "no authentication error is retried")
    }

    /// A six-digit code that is not the current one.
    private func wrongTOTPCode() async throws -> String {
        let current = try await TOTPCode.current()
        return String(format: "%06d", (Int(current)! + 1) % 1_000_000)
    }
}

extension MotoTests {
    /// moto has no RevokeToken: it answers HTTP 500 with an HTML page, which reads as a (retryable) server error.
    @Test func revokeAgainstMotoIsAServerError() async throws {
        let fixture = try await MotoFixture.make(withSecret: false)
        await #expect(throws: CognitoError.serverError(status: 500)) {
            try await fixture.client.revoke(refreshToken: SecretBytes(utf8: "any"))
        }
        #expect(fixture.recorder.recorded.count == 4)
    }
}
