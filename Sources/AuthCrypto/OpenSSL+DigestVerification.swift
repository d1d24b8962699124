internal import COpenSSL
import FoundationEssentials

/// The one EVP_DigestVerify loop, shared by the RSA and EC public keys.
enum OpenSSLDigestVerification {
    /// Hashes `message` with SHA-256 region by region and checks `signature` (in the key type's own encoding: PKCS #1
    /// for RSA, DER for ECDSA). Every failure, expected or not, leaves the error queue empty.
    static func isValidSHA256Signature(
        _ signature: UnsafeRawBufferPointer, for message: some DataProtocol, key: OpaquePointer
    ) -> Bool {
        guard let context = EVP_MD_CTX_new() else { fatalError("\(OpenSSLError.drain("EVP_MD_CTX_new"))") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, OpenSSLAlgorithms.sha256.pointer, nil, key) == 1 else {
            OpenSSLError.clear()
            return false
        }
        for region in message.regions {
            let updated = region.withUnsafeBytes { EVP_DigestVerifyUpdate(context, $0.baseAddress, $0.count) }
            guard updated == 1 else {
                OpenSSLError.clear()
                return false
            }
        }
        let verified = EVP_DigestVerifyFinal(
            context, signature.baseAddress?.assumingMemoryBound(to: UInt8.self), signature.count)
        if verified != 1 { OpenSSLError.clear() }
        return verified == 1
    }
}
