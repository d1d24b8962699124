import AuthCrypto
import Foundation
import TestSupport
import Testing

/// ES256 verification: RFC 7515's published example, and keys and signatures made by the openssl CLI.
@Suite struct P256PublicKeyTests {
    /// RFC 7515 Appendix A.3: the JWK's x and y, the signing input and the JWS signature (raw r || s).
    static let x = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let signingInput =
        "eyJhbGciOiJFUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    static let signature = "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    static func decoded(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    @Test func rfc7515ExampleVerifies() throws {
        let key = try P256PublicKey(x: try Self.decoded(Self.x), y: try Self.decoded(Self.y))
        let signature = try Self.decoded(Self.signature)
        #expect(key.isValidSignature(signature, for: Array(Self.signingInput.utf8)))
        #expect(!key.isValidSignature(signature, for: Array((Self.signingInput + "x").utf8)))
        var flipped = signature
        flipped[40] ^= 0x01
        #expect(!key.isValidSignature(flipped, for: Array(Self.signingInput.utf8)))
        #expect(
            !key.isValidSignature(signature.dropLast(), for: Array(Self.signingInput.utf8)),
            "r || s is exactly 64 bytes")
        #expect(!key.isValidSignature([UInt8](repeating: 0, count: 64), for: Array(Self.signingInput.utf8)))
    }

    @Test func openSSLSignaturesVerifyAndOtherKeysDoNot() throws {
        let signer = try P256TestKey()
        let other = try P256TestKey()
        let (x, y) = try signer.coordinates()
        let key = try P256PublicKey(x: x, y: y)
        let (otherX, otherY) = try other.coordinates()
        let otherKey = try P256PublicKey(x: otherX, y: otherY)
        for length in [0, 1, 200, 5000] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let signature = try signer.sign(message)
            #expect(key.isValidSignature(signature, for: message), "\(length) bytes")
            #expect(!otherKey.isValidSignature(signature, for: message))
        }
    }

    @Test func pointsOffTheCurveAndWrongLengthsAreRefused() throws {
        let x = try Self.decoded(Self.x)
        let y = try Self.decoded(Self.y)
        var offCurve = y
        offCurve[31] ^= 0x01
        #expect(throws: CryptoError.invalidKey) { try P256PublicKey(x: x, y: offCurve) }
        #expect(throws: CryptoError.invalidKey) { try P256PublicKey(x: x.dropFirst(), y: y) }
        #expect(throws: CryptoError.invalidKey) { try P256PublicKey(x: [0] + x, y: y) }
        #expect(throws: CryptoError.invalidKey) {
            try P256PublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))
        }
    }
}
