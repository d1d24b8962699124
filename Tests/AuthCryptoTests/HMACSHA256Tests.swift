import AuthCrypto
import Foundation
import Testing

@Suite struct HMACSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let mac: String  // hex; test case 5 lists only the first 128 bits
        var testDescription: String { name }
    }

    // RFC 4231 section 4, HMAC-SHA-256 results of test cases 1 to 7.
    static let rfc4231: [Vector] = [
        Vector(
            name: "1", key: [UInt8](repeating: 0x0b, count: 20), data: utf8("Hi There"),
            mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(
            name: "2", key: utf8("Jefe"), data: utf8("what do ya want for nothing?"),
            mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(
            name: "3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
            mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(
            name: "4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
            mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(
            name: "5 (truncated to 128 bits)", key: [UInt8](repeating: 0x0c, count: 20),
            data: utf8("Test With Truncation"),
            mac: "a3b6167473100ee06e0c796c2955552b"),
        Vector(
            name: "6", key: [UInt8](repeating: 0xaa, count: 131),
            data: utf8("Test Using Larger Than Block-Size Key - Hash Key First"),
            mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(
            name: "7", key: [UInt8](repeating: 0xaa, count: 131),
            data: utf8(
                "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
            ),
            mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: rfc4231) func rfc4231TestCase(_ vector: Vector) {
        let expectedBytes = vector.mac.count / 2
        let mac = HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
        #expect(mac.count == 32)
        #expect(hex(mac.prefix(expectedBytes)) == vector.mac)
        let secretKeyed = HMACSHA256.authenticationCode(for: Data(vector.data), key: SecretBytes(vector.key))
        #expect(secretKeyed == mac)
    }

    // An empty key is valid HMAC (an all-zero block); OpenSSL's EVP_MAC_init reads a NULL key as "no key".
    // Expected: python3 -c 'import hmac;print(hmac.new(b"",b"abc","sha256").hexdigest())'
    @Test func emptyKey() {
        #expect(
            hex(HMACSHA256.authenticationCode(for: utf8("abc"), key: [UInt8]()))
                == "fd7adb152c05ef80dccf50a1fa4c05d5a3ec6da95575fc312ae7c5d091836351")
        #expect(
            hex(HMACSHA256.authenticationCode(for: utf8("abc"), key: SecretBytes([UInt8]())))
                == "fd7adb152c05ef80dccf50a1fa4c05d5a3ec6da95575fc312ae7c5d091836351")
    }
}
