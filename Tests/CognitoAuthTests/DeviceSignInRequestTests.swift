import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// What the client sends for remembered devices, against a stub transport: DEVICE_KEY on the sign-in and every
/// answer, the device's SRP answered inside the sign-in exactly as pycognito computes it, a new device surfaced
/// and confirmed with its verifier.
@Suite struct DeviceSignInRequestTests {
    typealias Request = CognitoClientRequestTests

    func client(_ transport: StubTransport, clock: TestClock? = nil, privateValue: BigUInt? = nil) throws
        -> CognitoClient
    {
        try .forTests(
            poolId: Request.poolId, clientId: Request.clientId, endpoint: "https://stub.test/",
            jwksURL: StubTransport.jwksURL,
            transport: transport, clock: clock, privateValue: privateValue)
    }

    @Test func aRememberedDeviceProvesItselfInsideTheSignIn() async throws {
        let example = try DeviceSRPTests.cases.get()[0]
        let device = RememberedDevice(
            key: example.device_key, groupKey: example.group_key, password: SecretBytes(utf8: example.device_password))
        let tokens = StubTransport.json(Request.tokensResult())
        let transport = StubTransport(jwks: TestTokens.jwks) { operation, body in
            switch (operation, body["ChallengeName"] as? String) {
            case ("InitiateAuth", _):
                return StubTransport.json([
                    "ChallengeName": "DEVICE_SRP_AUTH", "Session": "s1",
                    "ChallengeParameters": ["USERNAME": Request.internalName],
                ])
            case (_, "DEVICE_SRP_AUTH"):
                return StubTransport.json([
                    "ChallengeName": "DEVICE_PASSWORD_VERIFIER", "Session": "s2",
                    "ChallengeParameters": [
                        "USERNAME": Request.internalName, "SALT": example.challenge_salt_hex,
                        "SRP_B": example.srp_b_hex,
                        "SECRET_BLOCK": example.secret_block,
                    ],
                ])
            default:
                return tokens
            }
        }
        let client = try client(
            transport, clock: TestClock(Double(example.unix_time) + 0.4),
            privateValue: BigUInt(hex: example.small_a_hex))
        let step = try await client.signIn(
            username: "alice", password: SecretBytes(utf8: "Pw-1234567!"), flow: .userPassword, device: device)
        #expect(step.tokens != nil)

        let initiate = try #require(transport.bodies(of: "InitiateAuth").first?["AuthParameters"] as? [String: String])
        #expect(initiate["DEVICE_KEY"] == device.key)
        let answers = transport.bodies(of: "RespondToAuthChallenge")
        #expect(answers.map { $0["ChallengeName"] as? String } == ["DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER"])
        #expect(answers.map { $0["Session"] as? String } == ["s1", "s2"])
        let start = try #require(answers[0]["ChallengeResponses"] as? [String: String])
        #expect(start["USERNAME"] == Request.internalName && start["DEVICE_KEY"] == device.key)
        let privateValue = try #require(BigUInt(hex: example.small_a_hex))
        #expect(start["SRP_A"] == (try SRPSignIn(privateValue: privateValue)).publicValueHex)
        let proof = try #require(answers[1]["ChallengeResponses"] as? [String: String])
        #expect(proof["PASSWORD_CLAIM_SIGNATURE"] == example.signature)
        #expect(proof["TIMESTAMP"] == example.timestamp)
        #expect(proof["DEVICE_KEY"] == device.key && proof["USERNAME"] == Request.internalName)
        #expect(proof["PASSWORD_CLAIM_SECRET_BLOCK"] == example.secret_block)
        expectNoSecrets(in: "\(step) \(device)", [example.device_password])
    }

    @Test func aDeviceThePoolDoesNotSkipMFAForKeepsItsKeyOnTheAnswers() async throws {
        let transport = StubTransport(jwks: TestTokens.jwks) { operation, _ in
            operation == "InitiateAuth"
                ? StubTransport.json([
                    "ChallengeName": "SOFTWARE_TOKEN_MFA", "Session": "s1", "ChallengeParameters": [:],
                ])
                : StubTransport.json(Request.tokensResult())
        }
        let device = RememberedDevice(
            key: "us-east-1_dev", groupKey: "-group", password: SecretBytes(utf8: "device-pw"))
        let client = try client(transport)
        let challenge = try #require(
            try await client.signIn(
                username: "alice", password: SecretBytes(utf8: "pw"), flow: .userPassword, device: device
            ).challenge)
        _ = try await client.respond(to: challenge, with: .code(SecretBytes(utf8: "123456")))
        let answer = try #require(
            transport.bodies(of: "RespondToAuthChallenge").first?["ChallengeResponses"] as? [String: String])
        #expect(answer["DEVICE_KEY"] == "us-east-1_dev")
        #expect(!"\(challenge)".contains("device-pw"))
    }

    @Test func aNewDeviceIsSurfacedAndConfirmedWithAVerifier() async throws {
        var result = Request.tokensResult()
        var authentication = try #require(result["AuthenticationResult"] as? [String: Any])
        authentication["NewDeviceMetadata"] = ["DeviceKey": "us-east-1_new", "DeviceGroupKey": "-grp"]
        result["AuthenticationResult"] = authentication
        let signedIn = StubTransport.json(result)
        let transport = StubTransport(jwks: TestTokens.jwks) { operation, _ in
            operation == "ConfirmDevice" ? StubTransport.json(["UserConfirmationNecessary": true]) : signedIn
        }
        let client = try client(transport)
        let tokens = try #require(
            try await client.signIn(username: "alice", password: SecretBytes(utf8: "pw"), flow: .userPassword).tokens)
        let newDevice = try #require(tokens.newDevice)
        #expect(newDevice == NewDeviceMetadata(deviceKey: "us-east-1_new", deviceGroupKey: "-grp"))
        let (device, necessary) = try await client.confirmDevice(
            newDevice, name: "build-host", accessToken: tokens.accessToken)
        #expect(necessary && device.key == "us-east-1_new" && device.groupKey == "-grp")

        let body = try #require(transport.bodies(of: "ConfirmDevice").first)
        #expect(body["DeviceKey"] as? String == "us-east-1_new" && body["DeviceName"] as? String == "build-host")
        expectSecret(tokens.accessToken.text, equals: body["AccessToken"] as? String, "ConfirmDevice's AccessToken")
        let config = try #require(body["DeviceSecretVerifierConfig"] as? [String: String])
        let saltText = try #require(config["Salt"])
        let salt = try #require(Data(base64Encoded: saltText))
        let expected = DeviceVerifier(
            groupKey: "-grp", deviceKey: "us-east-1_new", password: device.password, salt: BigUInt(bigEndian: salt))
        #expect(config["PasswordVerifier"] == expected.verifier)
    }
}
