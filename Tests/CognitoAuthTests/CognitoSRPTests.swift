import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// The public SRP façade against pycognito (PyPI) on random cases, and the known-answer vector's SRP_A.
@Suite struct CognitoSRPTests {
    @Test func agreesWithPycognito() throws {
        let output = try ProcessRunner.run(
            PeerPython.path, [ScriptServer.scriptPath("pycognito_srp_cases.py"), "10", "20261202"])
        let cases = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]])
        #expect(cases.count == 10)
        for item in cases {
            let srp = try CognitoSRP(
                userPoolId: item["pool_id"] as! String, privateValue: BigUInt(hex: item["small_a_hex"] as! String)!)
            #expect(srp.publicValueHex == item["srp_a_hex"] as? String)
            let claim = try srp.passwordClaim(
                userIdForSRP: item["user_id_for_srp"] as! String,
                password: SecretBytes(utf8: item["password"] as! String),
                saltHex: item["salt_hex"] as! String, serverPublicValueHex: item["srp_b_hex"] as! String,
                secretBlock: item["secret_block"] as! String, unixTime: Int64(item["unix_time"] as! Int))
            #expect(claim.timestamp == item["timestamp"] as? String)
            #expect(claim.signature == item["signature"] as? String)
        }
    }

    @Test func publicValueMatchesTheKnownAnswer() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/cognito-srp-pycognito.json")
        let vector = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let srp = try CognitoSRP(
            userPoolId: vector["pool_id"] as! String, privateValue: BigUInt(hex: vector["small_a_hex"] as! String)!)
        #expect(srp.publicValueHex == vector["SRP_A"] as? String)
    }

    @Test func rejectsAPoolIdWithoutAName() {
        #expect(throws: CognitoError.self) { try CognitoSRP(userPoolId: "us-east-1_") }
        #expect(throws: CognitoError.self) { try CognitoSRP(userPoolId: "nopool") }
    }
}
