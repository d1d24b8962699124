internal import COpenSSL
import FoundationEssentials

enum OpenSSLCipher {
    static func sealAES256GCM(
        _ plaintext: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, nonce: [UInt8], aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        let context = try makeContext(key: key, nonce: nonce, encrypting: true)
        defer { EVP_CIPHER_CTX_free(context) }
        try update(context, aad: aad)
        var failure: CryptoError?
        let ciphertext = [UInt8](unsafeUninitializedCapacity: plaintext.count) { output, initialized in
            do throws(CryptoError) {
                try update(context, input: plaintext, output: UnsafeMutableRawBufferPointer(output))
                var finalLength: Int32 = 0
                guard EVP_EncryptFinal_ex(context, output.baseAddress, &finalLength) == 1 else {
                    throw OpenSSLError.drain("EVP_EncryptFinal_ex")
                }
                initialized = plaintext.count  // GCM is a stream mode: Final writes nothing
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        var tag = [UInt8](repeating: 0, count: AES256GCM.tagByteCount)
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tag.count), &tag) == 1 else {
            throw OpenSSLError.drain("EVP_CTRL_GCM_GET_TAG")
        }
        return (ciphertext, tag)
    }

    static func openAES256GCM(
        _ box: AES256GCM.SealedBox, key: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> SecretBytes {
        let context = try makeContext(key: key, nonce: box.nonce, encrypting: false)
        defer { EVP_CIPHER_CTX_free(context) }
        var tag = box.tag
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1 else {
            throw OpenSSLError.drain("EVP_CTRL_GCM_SET_TAG")
        }
        try update(context, aad: aad)
        return try box.ciphertext.withContiguousBytes { (ciphertext) throws(CryptoError) in
            try SecretBytes(count: ciphertext.count) { (output) throws(CryptoError) in
                try update(context, input: ciphertext, output: output)
                var finalLength: Int32 = 0
                guard
                    EVP_DecryptFinal_ex(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &finalLength)
                        == 1
                else {
                    OpenSSLError.clear()
                    throw .authenticationFailure
                }
            }
        }
    }

    private static func makeContext(key: UnsafeRawBufferPointer, nonce: [UInt8], encrypting: Bool) throws(CryptoError)
        -> OpaquePointer
    {
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLError.drain("EVP_CIPHER_CTX_new") }
        let cipher = OpenSSLAlgorithms.aes256GCM.pointer
        let keyPointer = key.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let initialized =
            encrypting
            ? EVP_EncryptInit_ex2(context, cipher, keyPointer, nonce, nil)
            : EVP_DecryptInit_ex2(context, cipher, keyPointer, nonce, nil)
        guard initialized == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw OpenSSLError.drain("AES-256-GCM init")
        }
        return context
    }

    /// Feeds associated data (no output). Skipped when empty.
    private static func update(_ context: OpaquePointer, aad: UnsafeRawBufferPointer) throws(CryptoError) {
        guard aad.count > 0 else { return }
        guard aad.count <= Int32.max else { throw .invalidParameter("AES-GCM associated data is too long") }
        var length: Int32 = 0
        guard
            EVP_CipherUpdate(
                context, nil, &length, aad.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(aad.count)) == 1
        else {
            throw OpenSSLError.drain("AES-GCM associated data")
        }
    }

    /// Encrypts or decrypts `input` into `output` of the same length. Skipped when empty.
    private static func update(
        _ context: OpaquePointer, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard input.count > 0 else { return }
        guard input.count <= Int32.max else { throw .invalidParameter("AES-GCM input is too long") }
        var length: Int32 = 0
        let updated = EVP_CipherUpdate(
            context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
            input.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(input.count))
        guard updated == 1, Int(length) == input.count else { throw OpenSSLError.drain("AES-GCM update") }
    }
}
