internal import COpenSSL

extension StaticString {
    /// A NUL-terminated C string that lives for the whole process, for the OpenSSL calls that keep the
    /// pointer they are given (OSSL_PARAM, OSSL_PARAM_BLD, EVP_PKEY_CTX_new_from_name): a String bridged
    /// implicitly would be valid for one call only.
    var cString: UnsafePointer<CChar> {
        precondition(hasPointerRepresentation)
        return UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }

    var mutableCString: UnsafeMutablePointer<CChar> { UnsafeMutablePointer(mutating: cString) }
}

/// An algorithm fetched once per process. Fetched EVP_MD/EVP_MAC/EVP_KDF/EVP_CIPHER objects are immutable
/// and safe to share between threads in OpenSSL 3; they are never freed.
struct FetchedAlgorithm: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ kind: String, _ name: StaticString, fetch: (UnsafePointer<CChar>) -> OpaquePointer?) {
        guard let pointer = fetch(name.cString) else {
            fatalError("\(OpenSSLError.drain("fetching \(kind) \(name)"))")
        }
        self.pointer = pointer
    }
}

enum OpenSSLAlgorithms {
    static let sha256 = FetchedAlgorithm("digest", OpenSSLParameter.sha256) { EVP_MD_fetch(nil, $0, nil) }
    static let hmac = FetchedAlgorithm("MAC", "HMAC") { EVP_MAC_fetch(nil, $0, nil) }
    static let hkdf = FetchedAlgorithm("KDF", "HKDF") { EVP_KDF_fetch(nil, $0, nil) }
    static let aes256GCM = FetchedAlgorithm("cipher", "AES-256-GCM") { EVP_CIPHER_fetch(nil, $0, nil) }
}

/// OSSL_PARAM keys and values (the core_names.h macros import as Strings, which would be bridged per call).
enum OpenSSLParameter {
    static let digest: StaticString = "digest"  // OSSL_MAC_PARAM_DIGEST, OSSL_KDF_PARAM_DIGEST
    static let key: StaticString = "key"  // OSSL_KDF_PARAM_KEY
    static let salt: StaticString = "salt"  // OSSL_KDF_PARAM_SALT
    static let info: StaticString = "info"  // OSSL_KDF_PARAM_INFO
    static let rsaModulus: StaticString = "n"  // OSSL_PKEY_PARAM_RSA_N
    static let rsaExponent: StaticString = "e"  // OSSL_PKEY_PARAM_RSA_E
    static let rsaAlgorithm: StaticString = "RSA"
    static let ecAlgorithm: StaticString = "EC"
    static let groupName: StaticString = "group"  // OSSL_PKEY_PARAM_GROUP_NAME
    static let publicKey: StaticString = "pub"  // OSSL_PKEY_PARAM_PUB_KEY
    static let p256: StaticString = "prime256v1"
    static let sha256: StaticString = "SHA2-256"
}
