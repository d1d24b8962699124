import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// The tests' emulation of remembered devices, checked first against pycognito (an independent client), then
/// CognitoClient against it: a new device is confirmed, the next sign-in proves it (and skips the authenticator
/// app), a wrong device password fails, a forgotten device is refused, and the device operations work.
@Suite struct SignInStandInTests {
    static let password = MotoTests.password

    struct Fixture {
        let users: MotoFixture
        let standIn: SignInStandIn
        let client: CognitoClient

        static func make(totpRequired: Bool = false, deviceTracking: SignInStandIn.DeviceTracking = .always)
            async throws -> Fixture
        {
            let users = try await MotoFixture.make(withSecret: false, totpRequired: totpRequired)
            let standIn = try await SignInStandIn.start(
                moto: users.moto, clientId: users.clientId, deviceTracking: deviceTracking)
            let client = try CognitoClient.forTests(
                poolId: users.poolId, clientId: users.clientId, endpoint: standIn.endpoint,
                jwksURL: users.moto.jwksURL(poolId: users.poolId), transport: MotoFixture.transport)
            try await users.createUser("erin", password: SignInStandInTests.password, email: "erin@example.com")
            return Fixture(users: users, standIn: standIn, client: client)
        }

        func signIn(device: RememberedDevice? = nil) async throws -> SignInStep {
            try await client.signIn(
                username: "erin", password: SecretBytes(utf8: SignInStandInTests.password), device: device)
        }
    }

    @Test func pycognitosDeviceSignInPassesAndAWrongDevicePasswordFails() async throws {
        let fixture = try await Fixture.make()
        let output = try ProcessRunner.run(
            PeerPython.path,
            [
                ScriptServer.scriptPath("pycognito_device_check.py"), fixture.standIn.endpoint, fixture.users.poolId,
                fixture.users.clientId, "erin", Self.password,
            ])
        #expect(output.status == 0, "\(output.stderrText)")
        let result = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(result["newDevice"] as? Bool == true && result["confirmed"] as? Bool == true)
        #expect(result["remembered"] as? String == "tokens")
        #expect((result["wrongPassword"] as? String)?.contains("NotAuthorizedException") == true, "\(result)")
        let requests = try await fixture.standIn.requests()
        #expect(requests.filter { $0 == "RespondToAuthChallenge DEVICE_PASSWORD_VERIFIER" }.count == 2)
    }

    @Test func aConfirmedDeviceIsProvedOnTheNextSignInAndSkipsTheAuthenticatorApp() async throws {
        let fixture = try await Fixture.make(totpRequired: true)
        // The first sign-in sets up the authenticator app (MFA_SETUP), as moto requires.
        var step = try await fixture.signIn()
        let setup = try await fixture.client.beginSoftwareTokenSetup(for: try #require(step.challenge))
        step = try await fixture.client.respond(
            to: setup.challenge, with: .softwareTokenSetupCode(SecretBytes(utf8: try await TOTPCode.current())))
        let tokens = try #require(step.tokens)
        let newDevice = try #require(tokens.newDevice)
        let (device, necessary) = try await fixture.client.confirmDevice(
            newDevice, name: "build-host", accessToken: tokens.accessToken)
        #expect(!necessary)

        let remembered = try #require(
            try await fixture.signIn(device: device).tokens, "no MFA challenge with the remembered device")
        #expect(remembered.newDevice == nil)
        #expect(
            try await fixture.standIn.requests().suffix(3) == [
                "RespondToAuthChallenge PASSWORD_VERIFIER", "RespondToAuthChallenge DEVICE_SRP_AUTH",
                "RespondToAuthChallenge DEVICE_PASSWORD_VERIFIER",
            ])
        let devices = try await fixture.client.listDevices(accessToken: remembered.accessToken)
        #expect(devices.map(\.key) == [device.key])
        #expect(devices.first?.name == "build-host" && devices.first?.rememberedStatus == "remembered")

        let wrong = RememberedDevice(
            key: device.key, groupKey: device.groupKey, password: SecretBytes(utf8: "not-the-password"))
        await #expect(throws: CognitoError.notAuthorized(message: "Incorrect username or password.")) {
            try await fixture.signIn(device: wrong)
        }

        try await fixture.client.forgetDevice(deviceKey: device.key, accessToken: remembered.accessToken)
        await #expect(throws: CognitoError.resourceNotFound(message: "Device does not exist.")) {
            try await fixture.signIn(device: device)
        }
    }

    @Test func wherePoolsLeaveItToTheUserTheDeviceIsRememberedOnRequest() async throws {
        let fixture = try await Fixture.make(deviceTracking: .userOptIn)
        let tokens = try #require(try await fixture.signIn().tokens)
        let (device, necessary) = try await fixture.client.confirmDevice(
            try #require(tokens.newDevice), name: "laptop", accessToken: tokens.accessToken)
        #expect(necessary)
        #expect(
            try await fixture.client.listDevices(accessToken: tokens.accessToken).first?.rememberedStatus
                == "not_remembered")
        try await fixture.client.setDeviceRemembered(true, deviceKey: device.key, accessToken: tokens.accessToken)
        #expect(
            try await fixture.client.listDevices(accessToken: tokens.accessToken).first?.rememberedStatus
                == "remembered")
    }
}
