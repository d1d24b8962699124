internal import COpenSSL

enum OpenSSLKDF {
    /// The buffers go into OSSL_PARAMs by pointer, so they must stay valid until EVP_KDF_derive returns:
    /// the callers pass buffers scoped around this call.
    static func hkdfSHA256(
        ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer, outputByteCount: Int
    ) throws(CryptoError) -> SecretBytes {
        guard let context = EVP_KDF_CTX_new(OpenSSLAlgorithms.hkdf.pointer) else {
            throw OpenSSLError.drain("EVP_KDF_CTX_new")
        }
        defer { EVP_KDF_CTX_free(context) }
        var parameters = [
            OSSL_PARAM_construct_utf8_string(
                OpenSSLParameter.digest.cString, OpenSSLParameter.sha256.mutableCString, 0),
            OSSL_PARAM_construct_octet_string(
                OpenSSLParameter.key.cString, UnsafeMutableRawPointer(mutating: ikm.baseAddress), ikm.count),
            OSSL_PARAM_construct_octet_string(
                OpenSSLParameter.salt.cString, UnsafeMutableRawPointer(mutating: salt.baseAddress), salt.count),
            OSSL_PARAM_construct_octet_string(
                OpenSSLParameter.info.cString, UnsafeMutableRawPointer(mutating: info.baseAddress), info.count),
            authvault_OSSL_PARAM_END(),
        ]
        return try SecretBytes(count: outputByteCount) { (output) throws(CryptoError) in
            guard
                EVP_KDF_derive(
                    context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count, &parameters) == 1
            else {
                throw OpenSSLError.drain("HKDF-SHA256")
            }
        }
    }

    static func scrypt(
        password: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, parameters: ScryptParameters,
        outputByteCount: Int
    ) throws(CryptoError) -> SecretBytes {
        try SecretBytes(count: outputByteCount) { (output) throws(CryptoError) in
            let derived = EVP_PBE_scrypt(
                password.baseAddress?.assumingMemoryBound(to: CChar.self), password.count,
                salt.baseAddress?.assumingMemoryBound(to: UInt8.self), salt.count,
                UInt64(1) << UInt64(parameters.logN), UInt64(parameters.r), UInt64(parameters.p),
                parameters.memoryBytes,
                output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count)
            guard derived == 1 else { throw OpenSSLError.drain("scrypt") }
        }
    }
}
