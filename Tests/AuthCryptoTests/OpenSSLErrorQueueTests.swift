import AuthCrypto
import COpenSSL
import Testing

/// OpenSSL's error queue is per thread; an expected failure must not leave an entry that a later, unrelated
/// call on the same thread would report. Each test is synchronous, so it stays on one thread.
@Suite struct OpenSSLErrorQueueTests {
    @Test func failedOpenLeavesQueueEmpty() throws {
        ERR_clear_error()
        let key = SecretBytes(zeroedCount: 32)
        let box = try AES256GCM.SealedBox(
            nonce: [UInt8](repeating: 0, count: 12), ciphertext: [1, 2, 3], tag: [UInt8](repeating: 0, count: 16))
        #expect(throws: CryptoError.authenticationFailure) {
            try AES256GCM.open(box, using: key, authenticating: [UInt8]())
        }
        #expect(ERR_peek_error() == 0)
    }

    @Test func failedVerificationLeavesQueueEmpty() throws {
        ERR_clear_error()
        // Any odd 2048-bit modulus will do for a signature that cannot verify.
        let key = try RSAPublicKey(modulus: [UInt8](repeating: 0xff, count: 256), exponent: [0x01, 0x00, 0x01])
        #expect(!key.isValidSignature([UInt8](repeating: 0x42, count: 256), for: utf8("message")))
        #expect(!key.isValidSignature([UInt8](repeating: 0x42, count: 10), for: utf8("message")))
        #expect(ERR_peek_error() == 0)
    }
}
