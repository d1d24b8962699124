internal import COpenSSL
import FoundationEssentials

/// An EVP_PKEY holding only n and e. Verification never mutates it, and OpenSSL 3 allows concurrent
/// operations on one EVP_PKEY, each with its own context.
final class OpenSSLRSAPublicKey: @unchecked Sendable {
    private let key: OpaquePointer
    let modulusBits: Int

    init(modulus: UnsafeRawBufferPointer, exponent: UnsafeRawBufferPointer, allowedModulusBits: ClosedRange<Int>)
        throws(CryptoError)
    {
        let n = try OpenSSLBigNumber.make(modulus)
        defer { BN_free(n) }
        let e = try OpenSSLBigNumber.make(exponent)
        defer { BN_free(e) }
        modulusBits = Int(BN_num_bits(n))
        guard allowedModulusBits.contains(modulusBits), BN_is_odd(e) == 1, BN_is_one(e) == 0, BN_cmp(e, n) < 0 else {
            throw .invalidKey
        }

        guard let builder = OSSL_PARAM_BLD_new() else { throw OpenSSLError.drain("OSSL_PARAM_BLD_new") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard OSSL_PARAM_BLD_push_BN(builder, OpenSSLParameter.rsaModulus.cString, n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, OpenSSLParameter.rsaExponent.cString, e) == 1,
            let parameters = OSSL_PARAM_BLD_to_param(builder)
        else { throw OpenSSLError.drain("building RSA parameters") }
        defer { OSSL_PARAM_free(parameters) }

        guard let context = EVP_PKEY_CTX_new_from_name(nil, OpenSSLParameter.rsaAlgorithm.cString, nil) else {
            throw OpenSSLError.drain("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, authvault_EVP_PKEY_PUBLIC_KEY(), parameters) == 1,
            let key
        else { throw OpenSSLError.drain("EVP_PKEY_fromdata") }
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256: an RSA key's default padding is PKCS #1 v1.5.
    func isValidPKCS1SHA256Signature(_ signature: UnsafeRawBufferPointer, for message: some DataProtocol) -> Bool {
        OpenSSLDigestVerification.isValidSHA256Signature(signature, for: message, key: key)
    }
}
