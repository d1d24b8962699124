import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing

@testable import CognitoAuth

/// What the client sends and how it reads Cognito's answers, against a stub transport: the request shapes moto
/// does not check (SRP values, SECRET_HASH with the internal user name, challenge responses) and local rules
/// (challenge expiry, answers that do not fit).
@Suite struct CognitoClientRequestTests {
    static let poolId = "us-east-1_StubPool1"
    static let clientId = "stubclient123"
    static let secret = "stub-client-secret-0123456789"
    static let internalName = "3f1c9a52-internal"

    static func tokensResult(
        poolId: String = poolId, username: String = internalName, subject: String = "sub-1", refresh: Bool = true,
        accessSubject: String? = nil
    ) -> [String: Any] {
        var result: [String: Any] = [
            "IdToken": try! TestTokens.idToken(
                poolId: poolId, clientId: clientId, username: username, subject: subject, email: "a@example.com"),
            "AccessToken": try! TestTokens.accessToken(
                poolId: poolId, clientId: clientId, username: username, subject: accessSubject ?? subject),
            "ExpiresIn": 3600, "TokenType": "Bearer",
        ]
        if refresh { result["RefreshToken"] = "refresh-\(UUID().uuidString)" }
        return ["AuthenticationResult": result]
    }

    func client(
        _ transport: StubTransport, secret: String? = nil, poolId: String = poolId, clock: TestClock? = nil,
        privateValue: BigUInt? = nil
    ) throws -> CognitoClient {
        try .forTests(
            poolId: poolId, clientId: Self.clientId, clientSecret: secret, endpoint: "https://stub.test/",
            jwksURL: StubTransport.jwksURL, transport: transport, clock: clock, privateValue: privateValue)
    }

    /// pycognito computed A, TIMESTAMP and the signature for these inputs; the client, with the same private
    /// value and clock, must send exactly those, with the internal USERNAME and its SECRET_HASH in the answer.
    @Test(arguments: [false, true])
    func srpSignInSendsPycognitosValues(withSecret: Bool) async throws {
        let example = try SRPTests.pycognitoCases.get()[0]
        let challenge: [String: Any] = [
            "ChallengeName": "PASSWORD_VERIFIER", "Session": "srp-session",
            "ChallengeParameters": [
                "USERNAME": Self.internalName, "USER_ID_FOR_SRP": example.user_id_for_srp,
                "SALT": example.salt_hex, "SRP_B": example.srp_b_hex, "SECRET_BLOCK": example.secret_block,
            ],
        ]
        let challengeResponse = StubTransport.json(challenge)
        let transport = StubTransport(jwks: TestTokens.jwks) { operation, _ in
            operation == "InitiateAuth"
                ? challengeResponse : StubTransport.json(Self.tokensResult(poolId: example.pool_id))
        }
        let client = try client(
            transport, secret: withSecret ? Self.secret : nil, poolId: example.pool_id,
            clock: TestClock(Double(example.unix_time) + 0.75), privateValue: BigUInt(hex: example.small_a_hex))
        let step = try await client.signIn(username: "alice@example.com", password: SecretBytes(utf8: example.password))
        let tokens = try #require(step.tokens)
        #expect(tokens.identity.username == Self.internalName)

        for request in transport.requests {
            #expect(request.method == "POST")
            #expect(request.url == "https://stub.test/")
            #expect(request.headerValue("Content-Type") == "application/x-amz-json-1.1")
        }
        let initiate = try #require(transport.bodies(of: "InitiateAuth").first)
        #expect(initiate["AuthFlow"] as? String == "USER_SRP_AUTH")
        #expect(initiate["ClientId"] as? String == Self.clientId)
        let parameters = try #require(initiate["AuthParameters"] as? [String: String])
        #expect(parameters["USERNAME"] == "alice@example.com")
        #expect(parameters["SRP_A"] == example.srp_a_hex)
        #expect(
            parameters["SECRET_HASH"]
                == (withSecret
                    ? try pythonSecretHash(secret: Self.secret, username: "alice@example.com", clientId: Self.clientId)
                    : nil))

        let respond = try #require(transport.bodies(of: "RespondToAuthChallenge").first)
        #expect(respond["ChallengeName"] as? String == "PASSWORD_VERIFIER")
        #expect(respond["Session"] as? String == "srp-session")
        let responses = try #require(respond["ChallengeResponses"] as? [String: String])
        #expect(responses["USERNAME"] == Self.internalName)
        #expect(responses["TIMESTAMP"] == example.timestamp)
        #expect(responses["PASSWORD_CLAIM_SIGNATURE"] == example.signature)
        #expect(responses["PASSWORD_CLAIM_SECRET_BLOCK"] == example.secret_block)
        #expect(
            responses["SECRET_HASH"]
                == (withSecret
                    ? try pythonSecretHash(secret: Self.secret, username: Self.internalName, clientId: Self.clientId)
                    : nil))
    }

    @Test func passwordFlowSendsThePassword() async throws {
        let transport = StubTransport(jwks: TestTokens.jwks) { _, _ in StubTransport.json(Self.tokensResult()) }
        let step = try await client(transport).signIn(
            username: "alice", password: SecretBytes(utf8: "Pw-1234567!"), flow: .userPassword)
        let tokens = try #require(step.tokens)
        #expect(
            tokens.identity == VerifiedIdentity(username: Self.internalName, subject: "sub-1", email: "a@example.com"))
        let body = try #require(transport.bodies(of: "InitiateAuth").first)
        #expect(body["AuthFlow"] as? String == "USER_PASSWORD_AUTH")
        #expect(body["AuthParameters"] as? [String: String] == ["USERNAME": "alice", "PASSWORD": "Pw-1234567!"])
        expectNoSecrets(
            in: "\(step) \(tokens)", [tokens.idToken?.text ?? "", tokens.accessToken.text, tokens.refreshToken.text])
    }

    /// SELECT_MFA_TYPE, then the chosen factor's challenge; a wrong code is retried with the same challenge value.
    @Test func mfaChallengesChainAndAWrongCodeCanBeRetried() async throws {
        let codes = Locked<[String]>([])
        let transport = StubTransport(jwks: TestTokens.jwks) { operation, body in
            guard operation == "RespondToAuthChallenge" else {
                return StubTransport.json([
                    "ChallengeName": "SELECT_MFA_TYPE", "Session": "s1",
                    "ChallengeParameters": [
                        "USERNAME": Self.internalName, "MFAS_CAN_CHOOSE": "[\"SMS_MFA\",\"SOFTWARE_TOKEN_MFA\"]",
                    ],
                ])
            }
            let responses = body["ChallengeResponses"] as? [String: String] ?? [:]
            if body["ChallengeName"] as? String == "SELECT_MFA_TYPE" {
                return StubTransport.json([
                    "ChallengeName": "SOFTWARE_TOKEN_MFA", "Session": "s2", "ChallengeParameters": [:],
                ])
            }
            codes.withLock { $0.append(responses["SOFTWARE_TOKEN_MFA_CODE"] ?? "") }
            return responses["SOFTWARE_TOKEN_MFA_CODE"] == "123456"
                ? StubTransport.json(Self.tokensResult())
                : StubTransport.error("CodeMismatchException", message: "Invalid code received for user")
        }
        let client = try client(transport)
        let select = try #require(
            try await client.signIn(username: "alice", password: SecretBytes(utf8: "pw"), flow: .userPassword).challenge
        )
        #expect(select.kind == .selectMFAType)
        #expect(select.mfaTypes == [.sms, .softwareToken])
        let totp = try #require(try await client.respond(to: select, with: .mfaType(.softwareToken)).challenge)
        #expect(totp.kind == .softwareTokenMFA)
        #expect(totp.username == Self.internalName)
        #expect(
            transport.bodies(of: "RespondToAuthChallenge")[0]["ChallengeResponses"] as? [String: String]
                == ["USERNAME": Self.internalName, "ANSWER": "SOFTWARE_TOKEN_MFA"])

        await #expect(throws: CognitoError.codeMismatch(message: "Invalid code received for user")) {
            try await client.respond(to: totp, with: .code(SecretBytes(utf8: "654321")))
        }
        let step = try await client.respond(to: totp, with: .code(SecretBytes(utf8: "123456")))
        #expect(step.tokens != nil)
        #expect(codes.withLock { $0 } == ["654321", "123456"])
        #expect(
            transport.bodies(of: "RespondToAuthChallenge").dropFirst().allSatisfy { $0["Session"] as? String == "s2" })
    }

    /// Each code-carrying challenge names its code field as Cognito documents it; NEW_PASSWORD_REQUIRED sends
    /// the required attributes as userAttributes.<name>.
    @Test func challengeResponsesAreShapedPerKind() async throws {
        let transport = StubTransport(jwks: TestTokens.jwks) { _, _ in StubTransport.json(Self.tokensResult()) }
        let client = try client(transport, secret: Self.secret)
        func challenge(_ kind: ChallengeKind, _ parameters: [String: String] = [:]) -> AuthChallenge {
            AuthChallenge(
                kind: kind, session: SecretBytes(utf8: "sess"), expiresAt: Date().timeIntervalSince1970 + 60,
                username: Self.internalName, parameters: parameters)
        }
        let newPassword = challenge(
            .newPasswordRequired,
            [
                "requiredAttributes": "[\"userAttributes.name\"]",
                "userAttributes": "{\"email\":\"a@example.com\",\"email_verified\":true}",
            ])
        #expect(newPassword.requiredAttributes == ["name"])
        #expect(newPassword.userAttributes == ["email": "a@example.com"])
        _ = try await client.respond(
            to: newPassword, with: .newPassword(SecretBytes(utf8: "New-Pw-1!"), attributes: ["name": "Alice"]))
        _ = try await client.respond(to: challenge(.smsMFA), with: .code(SecretBytes(utf8: "111111")))
        _ = try await client.respond(to: challenge(.emailOTP), with: .code(SecretBytes(utf8: "222222")))
        _ = try await client.respond(to: challenge(.customChallenge), with: .customAnswer(SecretBytes(utf8: "42")))

        let hash = try pythonSecretHash(secret: Self.secret, username: Self.internalName, clientId: Self.clientId)
        let sent = transport.bodies(of: "RespondToAuthChallenge").map {
            $0["ChallengeResponses"] as? [String: String] ?? [:]
        }
        #expect(
            sent == [
                [
                    "USERNAME": Self.internalName, "SECRET_HASH": hash, "NEW_PASSWORD": "New-Pw-1!",
                    "userAttributes.name": "Alice",
                ],
                ["USERNAME": Self.internalName, "SECRET_HASH": hash, "SMS_MFA_CODE": "111111"],
                ["USERNAME": Self.internalName, "SECRET_HASH": hash, "EMAIL_OTP_CODE": "222222"],
                ["USERNAME": Self.internalName, "SECRET_HASH": hash, "ANSWER": "42"],
            ])
        #expect(
            transport.bodies(of: "RespondToAuthChallenge").map { $0["ChallengeName"] as? String } == [
                "NEW_PASSWORD_REQUIRED", "SMS_MFA", "EMAIL_OTP", "CUSTOM_CHALLENGE",
            ])
    }

    @Test func expiredOrMismatchedAnswersAreRefusedLocally() async throws {
        let clock = TestClock(Date().timeIntervalSince1970)
        let transport = StubTransport(jwks: TestTokens.jwks) { _, _ in
            StubTransport.json([
                "ChallengeName": "SMS_MFA", "Session": "s",
                "ChallengeParameters": ["CODE_DELIVERY_DESTINATION": "+*******0100"],
            ])
        }
        let client = try client(transport, clock: clock)
        let challenge = try #require(
            try await client.signIn(username: "alice", password: SecretBytes(utf8: "pw"), flow: .userPassword).challenge
        )
        #expect(challenge.codeDeliveryDestination == "+*******0100")
        #expect(challenge.expiresAt == clock.now() + 180)
        await #expect(throws: CognitoError.answerDoesNotFitChallenge(.smsMFA)) {
            try await client.respond(to: challenge, with: .mfaType(.sms))
        }
        clock.advance(by: 181)
        await #expect(throws: CognitoError.challengeExpired(.smsMFA)) {
            try await client.respond(to: challenge, with: .code(SecretBytes(utf8: "1")))
        }
        #expect(transport.bodies(of: "RespondToAuthChallenge").isEmpty)
    }

    @Test func tokensThatDoNotVerifyAreRejected() async throws {
        let otherKey = try RSATestKey(kid: "test-key")  // same kid, different key: the signature fails
        let forged = try otherKey.mintJWT(claims: [
            "iss": TestTokens.issuer(poolId: Self.poolId), "aud": Self.clientId,
            "token_use": "id", "sub": "x", "exp": Int(Date().timeIntervalSince1970) + 60,
        ])
        let transport = StubTransport(jwks: TestTokens.jwks) { _, _ in
            var result = Self.tokensResult()
            var inner = result["AuthenticationResult"] as! [String: Any]
            inner["IdToken"] = forged
            result["AuthenticationResult"] = inner
            return StubTransport.json(result)
        }
        await #expect(throws: CognitoError.tokenRejected(.badSignature)) {
            try await client(transport).signIn(
                username: "alice", password: SecretBytes(utf8: "pw"), flow: .userPassword)
        }
        let mismatched = StubTransport(jwks: TestTokens.jwks) { _, _ in
            StubTransport.json(Self.tokensResult(accessSubject: "someone-else"))
        }
        await #expect(throws: CognitoError.self) {
            try await client(mismatched).signIn(
                username: "alice", password: SecretBytes(utf8: "pw"), flow: .userPassword)
        }
    }

    /// REFRESH_TOKEN_AUTH returns no refresh token: the old one is kept. NotAuthorized means the session is over.
    @Test func refreshKeepsTheRefreshTokenAndEndsOnNotAuthorized() async throws {
        let transport = StubTransport(jwks: TestTokens.jwks) { _, body in
            let parameters = (body["AuthParameters"] as? [String: String]) ?? [:]
            return parameters["REFRESH_TOKEN"] == "good-refresh"
                ? StubTransport.json(Self.tokensResult(refresh: false))
                : StubTransport.error(
                    "NotAuthorizedException", message: "Invalid Refresh Token: \(parameters["REFRESH_TOKEN"] ?? "")")
        }
        let client = try client(transport, secret: Self.secret)
        let tokens = try await client.refresh(
            refreshToken: SecretBytes(utf8: "good-refresh"), username: Self.internalName)
        expectSecret("good-refresh", equals: tokens.refreshToken.text)
        let body = try #require(transport.bodies(of: "InitiateAuth").first)
        #expect(body["AuthFlow"] as? String == "REFRESH_TOKEN_AUTH")
        #expect(
            body["AuthParameters"] as? [String: String] == [
                "REFRESH_TOKEN": "good-refresh",
                "SECRET_HASH": try pythonSecretHash(
                    secret: Self.secret, username: Self.internalName, clientId: Self.clientId),
            ])

        do {
            _ = try await client.refresh(
                refreshToken: SecretBytes(utf8: "revoked-refresh-token"), username: Self.internalName)
            Issue.record("a rejected refresh token must throw")
        } catch {
            #expect(error == .refreshTokenRejected(message: "Invalid Refresh Token: <redacted>"))
            #expect(error.requiresSignIn && !error.isRetryable)
            expectNoSecrets(in: error.description, ["revoked-refresh-token"])
        }
        #expect(transport.bodies(of: "InitiateAuth").count == 2, "authentication errors are not retried")
    }
}
