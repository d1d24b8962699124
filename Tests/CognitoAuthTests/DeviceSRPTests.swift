import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// Remembered devices' SRP against pycognito, on random inputs: the verifier and salt ConfirmDevice registers, and
/// the DEVICE_PASSWORD_VERIFIER answer, must come out as pycognito computes them.
@Suite struct DeviceSRPTests {
    struct DeviceCase: Decodable {
        let group_key: String, device_key: String, device_password: String, salt_hex: String
        let password_verifier: String, verifier_salt: String
        let small_a_hex: String, challenge_salt_hex: String, srp_b_hex: String, secret_block: String
        let unix_time: Int64, timestamp: String, signature: String
    }

    static let cases = Result { () throws -> [DeviceCase] in
        let output = try ProcessRunner.run(
            PeerPython.path, [ScriptServer.scriptPath("pycognito_srp_cases.py"), "30", "--device"])
        guard output.status == 0 else {
            throw TestFixtureError("pycognito_srp_cases.py --device failed: \(output.stderrText)")
        }
        return try JSONDecoder().decode([DeviceCase].self, from: output.stdout)
    }

    @Test func confirmDevicesVerifierMatchesPycognito() throws {
        let cases = try Self.cases.get()
        #expect(cases.count == 30)
        for example in cases {
            let verifier = DeviceVerifier(
                groupKey: example.group_key, deviceKey: example.device_key,
                password: SecretBytes(utf8: example.device_password),
                salt: try #require(BigUInt(hex: example.salt_hex)))
            #expect(verifier.verifier == example.password_verifier, "device \(example.device_key)")
            #expect(verifier.salt == example.verifier_salt)
        }
    }

    @Test func devicePasswordVerifierAnswerMatchesPycognito() throws {
        for example in try Self.cases.get() {
            let srp = try SRPSignIn(privateValue: try #require(BigUInt(hex: example.small_a_hex)))
            let timestamp = CognitoTimestamp.format(unixSeconds: example.unix_time)
            #expect(timestamp == example.timestamp)
            let signature = try srp.passwordClaimSignature(
                poolName: example.group_key, userIdForSRP: example.device_key,
                password: SecretBytes(utf8: example.device_password),
                saltHex: example.challenge_salt_hex, serverPublicValueHex: example.srp_b_hex,
                secretBlock: Array(try #require(Data(base64Encoded: example.secret_block))), timestamp: timestamp)
            #expect(signature == example.signature, "device \(example.device_key)")
        }
    }

    @Test func aNewDevicesPasswordAndSaltAreFreshRandom() throws {
        let first = DeviceVerifier.random(groupKey: "-group", deviceKey: "us-east-1_device")
        let second = DeviceVerifier.random(groupKey: "-group", deviceKey: "us-east-1_device")
        #expect(first.password != second.password && first.salt != second.salt && first.verifier != second.verifier)
        let password = first.password.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        #expect(Data(base64Encoded: password)?.count == 40)
        expectNoSecrets(
            in: "\(RememberedDevice(key: "k", groupKey: "g", password: first.password))", [password],
            "the device's description")
    }
}
