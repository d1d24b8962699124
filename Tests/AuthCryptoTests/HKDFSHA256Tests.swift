import AuthCrypto
import Testing

@Suite struct HKDFSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let ikm: [UInt8]
        let salt: [UInt8]
        let info: [UInt8]
        let okm: String
        var testDescription: String { name }
    }

    // RFC 5869 appendix A, test cases 1 to 3 (SHA-256).
    static let rfc5869: [Vector] = [
        Vector(
            name: "A.1 basic", ikm: [UInt8](repeating: 0x0b, count: 22), salt: Array(0x00...0x0c),
            info: Array(0xf0...0xf9),
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        Vector(
            name: "A.2 longer inputs", ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff),
            okm: """
                b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c\
                59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71\
                cc30c58179ec3e87c14c01d5c1f3434f1d87
                """),
        Vector(
            name: "A.3 empty salt and info", ikm: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [],
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: rfc5869) func rfc5869TestCase(_ vector: Vector) throws {
        let okm = try HKDFSHA256.deriveKey(
            inputKeyMaterial: vector.ikm, salt: vector.salt, info: vector.info, outputByteCount: vector.okm.count / 2)
        #expect(okm == SecretBytes(bytes(vector.okm)))
    }

    @Test func outputLengthLimits() {
        #expect(throws: CryptoError.self) {
            try HKDFSHA256.deriveKey(inputKeyMaterial: [1], salt: [UInt8](), info: [UInt8](), outputByteCount: 0)
        }
        #expect(throws: CryptoError.self) {
            try HKDFSHA256.deriveKey(
                inputKeyMaterial: [1], salt: [UInt8](), info: [UInt8](), outputByteCount: 255 * 32 + 1)
        }
    }
}
