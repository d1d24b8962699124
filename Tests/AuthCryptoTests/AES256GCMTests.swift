import AuthCrypto
import Testing

@Suite struct AES256GCMTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String
        let nonce: String
        let plaintext: String
        let aad: String
        let ciphertext: String
        let tag: String
        var testDescription: String { name }
    }

    static let zeroKey = String(repeating: "00", count: 32)
    static let key15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
    static let plaintext15 = """
        d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
        1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255
        """
    static let ciphertext15 = """
        522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
        8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad
        """

    // McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)", appendix B, test cases 13 to 16 (256-bit keys;
    // 16 is 15 with the last 4 plaintext bytes dropped and associated data added).
    static let specification: [Vector] = [
        Vector(
            name: "13 empty", key: zeroKey, nonce: String(repeating: "00", count: 12), plaintext: "", aad: "",
            ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        Vector(
            name: "14 one zero block", key: zeroKey, nonce: String(repeating: "00", count: 12),
            plaintext: String(repeating: "00", count: 16), aad: "",
            ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        Vector(
            name: "15 four blocks", key: key15, nonce: "cafebabefacedbaddecaf888", plaintext: plaintext15, aad: "",
            ciphertext: ciphertext15, tag: "b094dac5d93471bdec1a502270e3cc6c"),
        Vector(
            name: "16 with AAD", key: key15, nonce: "cafebabefacedbaddecaf888",
            plaintext: String(plaintext15.dropLast(8)),
            aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            ciphertext: String(ciphertext15.dropLast(8)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
    ]

    @Test(arguments: specification) func sealMatchesSpecification(_ vector: Vector) throws {
        let box = try AES256GCM.seal(
            bytes(vector.plaintext), using: SecretBytes(bytes(vector.key)), nonce: bytes(vector.nonce),
            authenticating: bytes(vector.aad))
        #expect(hex(box.nonce) == vector.nonce)
        #expect(hex(box.ciphertext) == vector.ciphertext)
        #expect(hex(box.tag) == vector.tag)
        #expect(hex(box.combined) == vector.nonce + vector.ciphertext + vector.tag)
    }

    @Test(arguments: specification) func openMatchesSpecification(_ vector: Vector) throws {
        let box = try AES256GCM.SealedBox(combined: bytes(vector.nonce + vector.ciphertext + vector.tag))
        let plaintext = try AES256GCM.open(
            box, using: SecretBytes(bytes(vector.key)), authenticating: bytes(vector.aad))
        #expect(plaintext == SecretBytes(bytes(vector.plaintext)))
    }

    static let vector16 = specification[3]

    static func sealed16() throws -> AES256GCM.SealedBox {
        try AES256GCM.SealedBox(
            nonce: bytes(vector16.nonce), ciphertext: bytes(vector16.ciphertext), tag: bytes(vector16.tag))
    }

    @Test func tamperedTagIsRejected() throws {
        let box = try Self.sealed16()
        var tag = box.tag
        tag[15] ^= 0x01
        let tampered = try AES256GCM.SealedBox(nonce: box.nonce, ciphertext: box.ciphertext, tag: tag)
        #expect(throws: CryptoError.authenticationFailure) {
            try AES256GCM.open(
                tampered, using: SecretBytes(bytes(Self.key15)), authenticating: bytes(Self.vector16.aad))
        }
    }

    @Test func tamperedCiphertextIsRejected() throws {
        let box = try Self.sealed16()
        var ciphertext = box.ciphertext
        ciphertext[0] ^= 0x80
        let tampered = try AES256GCM.SealedBox(nonce: box.nonce, ciphertext: ciphertext, tag: box.tag)
        #expect(throws: CryptoError.authenticationFailure) {
            try AES256GCM.open(
                tampered, using: SecretBytes(bytes(Self.key15)), authenticating: bytes(Self.vector16.aad))
        }
    }

    @Test func wrongAssociatedDataIsRejected() throws {
        let box = try Self.sealed16()
        #expect(throws: CryptoError.authenticationFailure) {
            try AES256GCM.open(box, using: SecretBytes(bytes(Self.key15)), authenticating: utf8("profile-b"))
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try AES256GCM.open(box, using: SecretBytes(bytes(Self.key15)), authenticating: [UInt8]())
        }
    }

    @Test func wrongKeyIsRejected() throws {
        let box = try Self.sealed16()
        #expect(throws: CryptoError.authenticationFailure) {
            try AES256GCM.open(box, using: SecretBytes(bytes(Self.zeroKey)), authenticating: bytes(Self.vector16.aad))
        }
    }

    @Test func randomNonceRoundTrip() throws {
        let key = SecureRandom.secretBytes(count: 32)
        let first = try AES256GCM.seal(utf8("token"), using: key, authenticating: utf8("profile-a"))
        let second = try AES256GCM.seal(utf8("token"), using: key, authenticating: utf8("profile-a"))
        #expect(first.nonce.count == 12)
        #expect(first.nonce != second.nonce)
        #expect(try AES256GCM.open(first, using: key, authenticating: utf8("profile-a")) == SecretBytes(utf8: "token"))
    }

    @Test func rejectsBadSizes() throws {
        let key = SecureRandom.secretBytes(count: 32)
        #expect(throws: CryptoError.invalidKey) {
            try AES256GCM.seal(utf8("x"), using: SecureRandom.secretBytes(count: 16), authenticating: [UInt8]())
        }
        #expect(throws: CryptoError.self) {
            try AES256GCM.seal(
                utf8("x"), using: key, nonce: [UInt8](repeating: 0, count: 16), authenticating: [UInt8]())
        }
        #expect(throws: CryptoError.self) { try AES256GCM.SealedBox(combined: [UInt8](repeating: 0, count: 27)) }
        #expect(throws: CryptoError.self) {
            try AES256GCM.SealedBox(
                nonce: [UInt8](repeating: 0, count: 12), ciphertext: [UInt8](), tag: [UInt8](repeating: 0, count: 15))
        }
    }
}
