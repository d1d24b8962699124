import Foundation
import TestSupport
import Testing

/// Remembered devices through the built binary, against the sign-in stand-in in front of moto: the first sign-in
/// confirms the machine as a device (kept in the vault after sign-out, named in `status`), the next proves it by
/// device SRP and so skips the authenticator app, `devices forget` ends that; where the pool leaves remembering to
/// the user, `--remember-device` asks for it. No password, code, token or device secret is ever printed.
@Suite struct DeviceLoginTests {
    @Test func theFirstSignInConfirmsTheDeviceTheNextProvesItAndForgetEndsIt() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        let password = try await scenario.addUser("dana", email: "dana@example.com")

        let first = try await account.login("dana", password: password, extra: ["--device-name", "build-box"])
        #expect(first.status == 0, "\(first.stderrText)")
        let device = try #require(try await scenario.statusDevice(), "status names no device")
        #expect(device.name == "build-box" && device.key.hasPrefix("us-east-1_"))
        #expect(
            first.stderrText.contains("Cognito now knows this machine as device 'build-box' (\(device.key))"),
            "\(first.stderrText)")
        let text = try await account.run(["status"])
        #expect(
            text.stdoutText.contains("Device:     this machine is 'build-box' (\(device.key))"), "\(text.stdoutText)")
        let listed = try await account.run(["devices", "list"])
        #expect(listed.status == 0, "\(listed.stderrText)")
        #expect(listed.stdoutText.hasPrefix("* \(device.key)  build-box  (remembered"), "\(listed.stdoutText)")

        try await account.logout()
        #expect(try await scenario.statusDevice()?.key == device.key, "the device went with the sign-out")
        let seen = try await scenario.standIn.requests().count
        let second = try await account.login("dana", password: password)
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(!second.stderrText.contains("now knows this machine"))
        let proof = try await scenario.requests(after: seen)
        #expect(
            proof.contains("RespondToAuthChallenge DEVICE_SRP_AUTH")
                && proof.contains("RespondToAuthChallenge DEVICE_PASSWORD_VERIFIER"),
            "\(proof)")
        #expect(!proof.contains("ConfirmDevice"))

        let forgot = try await account.run(["devices", "forget"])
        #expect(forgot.status == 0, "\(forgot.stderrText)")
        #expect(forgot.stderrText.contains("Forgot this machine's device \(device.key), at Cognito and here"))
        #expect(try await scenario.statusDevice() == nil)
        #expect(try await rememberedStatus(account).isEmpty)
        let again = try await account.run(["devices", "forget"])
        #expect(
            again.status == 2 && again.stderrText.contains("This machine is no remembered device of profile 'default'"))

        let third = try await account.login("dana", password: password, extra: ["--force"])
        #expect(third.status == 0, "\(third.stderrText)")
        let renewed = try #require(try await scenario.statusDevice())
        #expect(renewed.key != device.key)
        account.expectNoSecretsPrinted()
    }

    /// MFA with an authenticator app, as moto does it (its fixed secret): once the machine is a remembered
    /// device, a sign-in with no code at all goes through; forgotten, the code is asked for again.
    @Test func aRememberedDeviceSkipsTheAuthenticatorApp() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        try await account.moto.call(
            "SetUserPoolMfaConfig",
            [
                "UserPoolId": account.poolId, "MfaConfiguration": "OPTIONAL",
                "SoftwareTokenMfaConfiguration": ["Enabled": true],
            ])
        let password = try await scenario.addUser("mallory", email: "mallory@example.com")
        #expect(try await account.login("mallory", password: password).status == 0)
        try await CodeFromStandardInputTests.awayFromAStepBoundary()
        let code = try await TOTPCode.current()
        account.remember(code)
        let setUp = try await account.run(["mfa", "setup-totp", "--code-stdin"], stdin: code + "\n")
        #expect(setUp.status == 0, "\(setUp.stderrText)")

        try await account.logout()
        let remembered = try await account.login("mallory", password: password)
        #expect(remembered.status == 0, "a remembered device was asked for MFA: \(remembered.stderrText)")

        #expect(try await account.run(["devices", "forget"]).status == 0)
        try await account.logout()
        let forgotten = try await account.login("mallory", password: password)
        #expect(forgotten.status == 2 && forgotten.stderrText.contains("--mfa-code-stdin"), "\(forgotten.stderrText)")
        account.expectNoSecretsPrinted()
    }

    @Test func wherePoolsLeaveItToTheUserRememberDeviceAsksCognito() async throws {
        let scenario = try await StandInScenario.make(deviceTracking: .userOptIn)
        let account = scenario.account
        let password = try await scenario.addUser("opal", email: "opal@example.com")
        #expect(try await account.login("opal", password: password, extra: ["--device-name", "laptop"]).status == 0)
        #expect(try await rememberedStatus(account) == [false])

        try await account.logout()
        let asked = try await account.login("opal", password: password, extra: ["--remember-device"])
        #expect(asked.status == 0, "\(asked.stderrText)")
        #expect(
            asked.stderrText.contains("Cognito remembers this machine ('laptop') from now on."), "\(asked.stderrText)")
        #expect(try await rememberedStatus(account) == [true])
        #expect(try await scenario.standIn.requests().contains("UpdateDeviceStatus"))
        account.expectNoSecretsPrinted()
    }

    /// A device Cognito no longer knows (forgotten from elsewhere) is dropped here and the sign-in goes on.
    @Test func aDeviceCognitoForgotIsDroppedAndTheSignInGoesOn() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        let password = try await scenario.addUser("fern", email: "fern@example.com")
        #expect(try await account.login("fern", password: password).status == 0)
        let device = try #require(try await scenario.statusDevice())
        let accessToken = try await account.run(["token"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let forgotten = try await LoopbackHTTP.send(
            url: scenario.standIn.endpoint,
            headers: [
                "Content-Type": "application/x-amz-json-1.1",
                "X-Amz-Target": "AWSCognitoIdentityProviderService.ForgetDevice",
            ], body: try JSONSerialization.data(withJSONObject: ["AccessToken": accessToken, "DeviceKey": device.key]))
        #expect(forgotten.status == 200)

        try await account.logout()
        let signIn = try await account.login("fern", password: password)
        #expect(signIn.status == 0, "\(signIn.stderrText)")
        let renewed = try #require(try await scenario.statusDevice())
        #expect(renewed.key != device.key)
        account.expectNoSecretsPrinted()
    }

    /// A second profile of the same user is another device; `devices forget KEY` ends that one and leaves this one.
    @Test func anotherDeviceIsForgottenByItsKey() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        let password = try await scenario.addUser("gale", email: "gale@example.com")
        #expect(try await account.login("gale", password: password).status == 0)
        let here = try #require(try await scenario.statusDevice())
        let configured = try await account.run([
            "--profile", "other", "configure", "--user-pool-id", account.poolId, "--client-id", account.clientId,
            "--endpoint", scenario.standIn.endpoint, "--jwks-url", account.moto.jwksURL(poolId: account.poolId),
        ])
        #expect(configured.status == 0, "\(configured.stderrText)")
        let other = try await account.run(
            [
                "--profile", "other", "login", "--password", "--username", "gale", "--password-stdin",
                "--auth-flow", "password", "--device-name", "other-box",
            ], stdin: password + "\n")
        #expect(other.status == 0, "\(other.stderrText)")
        let listed = try await account.run(["devices", "list"])
        let lines = listed.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            lines.count == 2 && lines.filter { $0.hasPrefix("* ") } == lines.filter { $0.contains(here.key) },
            "\(listed.stdoutText)")
        let otherKey = try #require(
            lines.first { $0.contains("other-box") }?.split(separator: " ").first.map(String.init))

        let forgot = try await account.run(["devices", "forget", otherKey])
        #expect(
            forgot.status == 0 && forgot.stderrText.contains("Cognito forgot device \(otherKey)."),
            "\(forgot.stderrText)")
        #expect(try await rememberedStatus(account).count == 1)
        #expect(try await scenario.statusDevice()?.key == here.key)
        account.expectNoSecretsPrinted()
    }

    /// `devices list --json`, which is one object valid against docs/devices-list.schema.json and holds no secret.
    private func rememberedStatus(_ account: AccountScenario, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [Bool]
    {
        let output = try await account.run(["devices", "list", "--json"])
        let violations = try await JSONSchemaCheck.violations(of: output.stdout, against: "devices-list.schema.json")
        #expect(
            output.status == 0 && violations.isEmpty, "\(violations) \(output.stderrText)",
            sourceLocation: sourceLocation)
        account.expectNoSecrets(in: output.stdoutText, "devices list --json", sourceLocation: sourceLocation)
        let listing = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        let entries = listing?["devices"] as? [[String: Any]] ?? []
        return entries.map { $0["remembered"] as? Bool ?? false }
    }
}
