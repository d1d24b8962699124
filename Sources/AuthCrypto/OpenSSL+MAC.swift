internal import COpenSSL
import FoundationEssentials

enum OpenSSLMAC {
    /// `key` must have a non-nil base address: EVP_MAC_init treats a NULL key as "keep the previous key".
    static func hmacSHA256(_ data: some DataProtocol, key: UnsafeRawBufferPointer) -> [UInt8] {
        precondition(key.baseAddress != nil)
        // Duplicating a context whose digest is already set skips the digest lookup that setting it by name costs
        // on every call (a third of an HMAC's time for short messages).
        guard let context = EVP_MAC_CTX_dup(hmacSHA256Template.pointer) else {
            fatalError("\(OpenSSLError.drain("EVP_MAC_CTX_dup"))")
        }
        defer { EVP_MAC_CTX_free(context) }
        let initialized = EVP_MAC_init(context, key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count, nil)
        OpenSSLError.require(initialized == 1, "EVP_MAC_init")
        for region in data.regions {
            region.withUnsafeBytes { buffer in
                OpenSSLError.require(
                    EVP_MAC_update(context, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count) == 1,
                    "EVP_MAC_update")
            }
        }
        return [UInt8](unsafeUninitializedCapacity: HMACSHA256.byteCount) { output, initializedCount in
            var length = 0
            OpenSSLError.require(
                EVP_MAC_final(context, output.baseAddress, &length, output.count) == 1, "EVP_MAC_final")
            initializedCount = length
        }
    }
}

/// An HMAC context with SHA-256 set and no key, made once and only ever duplicated (a read), never used itself.
private let hmacSHA256Template: FetchedAlgorithm = {
    FetchedAlgorithm("MAC context", "HMAC-SHA256") { _ in
        guard let context = EVP_MAC_CTX_new(OpenSSLAlgorithms.hmac.pointer) else { return nil }
        var parameters = [
            OSSL_PARAM_construct_utf8_string(
                OpenSSLParameter.digest.cString, OpenSSLParameter.sha256.mutableCString, 0),
            authvault_OSSL_PARAM_END(),
        ]
        guard EVP_MAC_CTX_set_params(context, &parameters) == 1 else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        return context
    }
}()
