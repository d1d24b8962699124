import AuthCrypto
import Foundation
import Testing

@Suite struct ScryptTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let password: String
        let salt: String
        let parameters: ScryptParameters
        let key: String
        var testDescription: String { "N=2^\(parameters.logN) r=\(parameters.r) p=\(parameters.p)" }
    }

    // RFC 7914 section 12 (dkLen 64). The fourth vector (N = 2^20) is left out for its 1 GiB.
    static let rfc7914: [Vector] = [
        Vector(
            password: "", salt: "", parameters: ScryptParameters(logN: 4, r: 1, p: 1),
            key: """
                77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442\
                fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
                """),
        Vector(
            password: "password", salt: "NaCl", parameters: ScryptParameters(logN: 10, r: 8, p: 16),
            key: """
                fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162\
                2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
                """),
        Vector(
            password: "pleaseletmein", salt: "SodiumChloride", parameters: ScryptParameters(logN: 14, r: 8, p: 1),
            key: """
                7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2\
                d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887
                """),
    ]

    @Test(arguments: rfc7914) func rfc7914Vector(_ vector: Vector) throws {
        let key = try Scrypt.deriveKey(
            password: SecretBytes(utf8: vector.password), salt: utf8(vector.salt),
            parameters: vector.parameters, outputByteCount: 64)
        #expect(key == SecretBytes(bytes(vector.key)))
    }

    // 128·r·(N + 2 + p): OpenSSL's own accounting in EVP_PBE_scrypt_ex (B plus V, X and T).
    @Test func memoryBytes() {
        #expect(ScryptParameters.interactive == ScryptParameters(logN: 15, r: 8, p: 1))
        #expect(ScryptParameters.interactive.memoryBytes == 128 * 8 * (32768 + 2 + 1))
        #expect(ScryptParameters(logN: 63, r: .max, p: .max).memoryBytes == .max)
    }

    // N = 2^17 needs 128 MiB, past OpenSSL's 32 MiB default limit: passing maxmem makes it work.
    @Test func aboveOpenSSLDefaultMemoryLimit() throws {
        let parameters = ScryptParameters(logN: 17, r: 8, p: 1)
        #expect(parameters.memoryBytes > 32 * 1024 * 1024)
        let key = try Scrypt.deriveKey(
            password: SecretBytes(utf8: "pw"), salt: utf8("salt"), parameters: parameters, outputByteCount: 32)
        #expect(key.count == 32)
    }

    @Test func rejectsInvalidParameters() {
        let password = SecretBytes(utf8: "pw")
        for parameters in [
            ScryptParameters(logN: 0, r: 8, p: 1), ScryptParameters(logN: 64, r: 8, p: 1),
            ScryptParameters(logN: 4, r: 0, p: 1), ScryptParameters(logN: 4, r: 1, p: 0),
            ScryptParameters(logN: 4, r: 1 << 15, p: 1 << 15),
        ] {
            #expect(throws: CryptoError.self) {
                try Scrypt.deriveKey(password: password, salt: [UInt8](), parameters: parameters, outputByteCount: 32)
            }
        }
        #expect(throws: CryptoError.self) {
            try Scrypt.deriveKey(
                password: password, salt: [UInt8](), parameters: ScryptParameters(logN: 4, r: 1, p: 1),
                outputByteCount: 0)
        }
    }

    @Test func parametersRoundTripThroughJSON() throws {
        let data = try JSONEncoder().encode(ScryptParameters.interactive)
        #expect(try JSONDecoder().decode(ScryptParameters.self, from: data) == .interactive)
    }
}
