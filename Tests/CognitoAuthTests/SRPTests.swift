import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// The SRP math against pycognito: the published known-answer case, and pycognito itself on random inputs.
@Suite struct SRPTests {
    struct KnownAnswer: Decodable {
        struct Challenge: Decodable {
            let USERNAME: String
            let USER_ID_FOR_SRP: String
            let SALT: String
            let SRP_B: String
            let SECRET_BLOCK: String
        }
        let pool_id: String
        let username: String
        let password: String
        let small_a_hex: String
        let SRP_A: String
        let challenge: Challenge
        let TIMESTAMP: String
        let PASSWORD_CLAIM_SIGNATURE: String
    }

    /// Computed by pycognito (see its "about"); copied into Fixtures/ from the project's shared vectors.
    static let knownAnswer: KnownAnswer = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/cognito-srp-pycognito.json")
        return try! JSONDecoder().decode(KnownAnswer.self, from: Data(contentsOf: path))
    }()

    @Test func knownAnswerGivesTheSameAAndSignature() throws {
        let vector = Self.knownAnswer
        let srp = try SRPSignIn(privateValue: try #require(BigUInt(hex: vector.small_a_hex)))
        #expect(srp.publicValueHex == vector.SRP_A)
        let signature = try srp.passwordClaimSignature(
            poolName: String(vector.pool_id.split(separator: "_")[1]), userIdForSRP: vector.challenge.USER_ID_FOR_SRP,
            password: SecretBytes(utf8: vector.password), saltHex: vector.challenge.SALT,
            serverPublicValueHex: vector.challenge.SRP_B,
            secretBlock: Array(try #require(Data(base64Encoded: vector.challenge.SECRET_BLOCK))),
            timestamp: vector.TIMESTAMP)
        #expect(signature == vector.PASSWORD_CLAIM_SIGNATURE)
    }

    struct PycognitoCase: Decodable {
        let pool_id: String
        let user_id_for_srp: String
        let password: String
        let small_a_hex: String
        let salt_hex: String
        let srp_b_hex: String
        let secret_block: String
        let unix_time: Int64
        let srp_a_hex: String
        let timestamp: String
        let signature: String
    }

    /// pycognito's answers to 50 random cases, computed once per test run (pycognito loads boto3: a slow start).
    static let pycognitoCases = Result { () throws -> [PycognitoCase] in
        let output = try ProcessRunner.run(PeerPython.path, [ScriptServer.scriptPath("pycognito_srp_cases.py"), "50"])
        guard output.status == 0 else {
            throw TestFixtureError(
                "pycognito_srp_cases.py failed (Scripts/install-deps.sh test puts pycognito in .venv): \(output.stderrText)"
            )
        }
        return try JSONDecoder().decode([PycognitoCase].self, from: output.stdout)
    }

    /// 50 random cases (random pool, user id, non-ASCII passwords, a, salt, B, secret block, time from 2000 to 2100):
    /// pycognito's A, TIMESTAMP and signature must come out the same.
    @Test func matchesPycognitoOnRandomInputs() throws {
        let cases = try Self.pycognitoCases.get()
        #expect(cases.count == 50)
        for example in cases {
            let srp = try SRPSignIn(privateValue: try #require(BigUInt(hex: example.small_a_hex)))
            #expect(srp.publicValueHex == example.srp_a_hex)
            let timestamp = CognitoTimestamp.format(unixSeconds: example.unix_time)
            #expect(timestamp == example.timestamp)
            let signature = try srp.passwordClaimSignature(
                poolName: String(example.pool_id.split(separator: "_")[1]), userIdForSRP: example.user_id_for_srp,
                password: SecretBytes(utf8: example.password), saltHex: example.salt_hex,
                serverPublicValueHex: example.srp_b_hex,
                secretBlock: Array(try #require(Data(base64Encoded: example.secret_block))), timestamp: timestamp)
            #expect(
                signature == example.signature, "case with pool \(example.pool_id), user \(example.user_id_for_srp)")
        }
    }

    /// B mod N = 0 would make S independent of the password: abort (B = 0, B = N, B = 2N).
    @Test(arguments: ["0", SRPGroup.prime.hex, (SRPGroup.prime + SRPGroup.prime).hex])
    func serverValueZeroModNIsRefused(serverValue: String) throws {
        let srp = try SRPSignIn(privateValue: BigUInt(12345))
        #expect(throws: CognitoError.invalidSRPChallenge("B mod N is zero")) {
            try srp.passwordClaimSignature(
                poolName: "pool", userIdForSRP: "alice", password: SecretBytes(utf8: "pw"),
                saltHex: "01", serverPublicValueHex: serverValue, secretBlock: [1], timestamp: "t")
        }
    }

    @Test func unreadableChallengeValuesAreRefused() throws {
        let srp = try SRPSignIn(privateValue: BigUInt(12345))
        #expect(throws: CognitoError.invalidSRPChallenge("SRP_B is not hex")) {
            try srp.passwordClaimSignature(
                poolName: "p", userIdForSRP: "u", password: SecretBytes(utf8: "pw"),
                saltHex: "01", serverPublicValueHex: "xyz", secretBlock: [], timestamp: "t")
        }
        #expect(throws: CognitoError.invalidSRPChallenge("SALT is not hex")) {
            try srp.passwordClaimSignature(
                poolName: "p", userIdForSRP: "u", password: SecretBytes(utf8: "pw"),
                saltHex: "", serverPublicValueHex: "02", secretBlock: [], timestamp: "t")
        }
        #expect(throws: CognitoError.self) { try SRPSignIn(privateValue: BigUInt(0)) }
    }

    /// The pad rule of REFERENCE section 1: a leading zero byte exactly when the high bit is set.
    @Test func padKeepsTheSignBitClear() {
        #expect(SRPGroup.pad(BigUInt(0x7f)) == [0x7f])
        #expect(SRPGroup.pad(BigUInt(0x80)) == [0x00, 0x80])
        #expect(SRPGroup.pad(BigUInt(0x0100)) == [0x01, 0x00])
        #expect(SRPGroup.pad(BigUInt(0)) == [0x00])
        #expect(SRPGroup.pad(SRPGroup.prime).count == 385)
    }

    /// k = H(pad(N) | pad(g)), as `python3 -c "import hashlib; from pycognito import aws_srp as s;
    /// print(hashlib.sha256(bytes.fromhex('00' + s.N_HEX + '02')).hexdigest())"` prints it.
    @Test func multiplierMatchesPythonsHash() {
        #expect(SRPGroup.multiplier.hex == "538282c4354742d7cbbde2359fcf67f9f5b3a6b08791e5011b43b8a5b66d9ee6")
    }

    /// The private value is random, 256 bits at most, and differs each time.
    @Test func privateValuesAreFresh() {
        let first = SRPSignIn.randomPrivateValue()
        let second = SRPSignIn.randomPrivateValue()
        #expect(first != second)
        #expect(first.bitWidth <= 256 && first.bitWidth > 200)
    }
}
