import AuthCrypto
import Testing

@Suite struct SecretBytesTests {
    @Test func descriptionIsRedacted() {
        let secret = SecretBytes(utf8: "hunter2")
        #expect(secret.description == "SecretBytes(<redacted> 7 bytes)")
        #expect(secret.debugDescription == secret.description)
        #expect(!"\(secret)".contains("hunter2"))
        #expect(!String(reflecting: secret).contains("hunter2"))
        #expect(!"\([secret])".contains("hunter2"))
    }

    @Test func equality() {
        #expect(SecretBytes(utf8: "abc") == SecretBytes([0x61, 0x62, 0x63]))
        #expect(SecretBytes(utf8: "abc") != SecretBytes(utf8: "abd"))
        #expect(SecretBytes(utf8: "abc") != SecretBytes(utf8: "abcd"))
        #expect(SecretBytes([UInt8]()) == SecretBytes(zeroedCount: 0))
        #expect(SecretBytes(zeroedCount: 3) == SecretBytes([0, 0, 0]))
    }

    @Test func copiesTheBytes() {
        var source: [UInt8] = [1, 2, 3]
        let secret = SecretBytes(source)
        source[0] = 9
        #expect(secret.withUnsafeBytes { Array($0) } == [1, 2, 3])
        // A sequence without contiguous storage takes the copying path.
        #expect(SecretBytes((1...3).lazy.map { UInt8($0) }).withUnsafeBytes { Array($0) } == [1, 2, 3])
        #expect(SecretBytes([UInt8]()).count == 0)
    }

    @Test func withUnsafeBytesRethrowsTypedErrors() {
        struct Refused: Error, Equatable {}
        #expect(throws: Refused()) {
            try SecretBytes(utf8: "x").withUnsafeBytes { (_) throws(Refused) in throw Refused() }
        }
    }
}
