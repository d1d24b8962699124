internal import COpenSSL
import FoundationEssentials

/// An EVP_PKEY holding only a P-256 public point. Verification never mutates it, and OpenSSL 3 allows concurrent
/// operations on one EVP_PKEY, each with its own context.
final class OpenSSLP256PublicKey: @unchecked Sendable {
    static let coordinateBytes = 32
    private let key: OpaquePointer

    /// `x` and `y` are 32-byte big-endian coordinates; the point must lie on the curve.
    init(x: UnsafeRawBufferPointer, y: UnsafeRawBufferPointer) throws(CryptoError) {
        guard x.count == Self.coordinateBytes, y.count == Self.coordinateBytes else { throw .invalidKey }
        // The uncompressed point encoding of SEC 1: 0x04, x, y.
        let point = [0x04] + Array(x) + Array(y)
        var made: OpaquePointer?
        let built = point.withUnsafeBytes { point -> Bool in
            guard let builder = OSSL_PARAM_BLD_new() else { return false }
            defer { OSSL_PARAM_BLD_free(builder) }
            guard
                OSSL_PARAM_BLD_push_utf8_string(
                    builder, OpenSSLParameter.groupName.cString, OpenSSLParameter.p256.cString, 0) == 1,
                OSSL_PARAM_BLD_push_octet_string(
                    builder, OpenSSLParameter.publicKey.cString, point.baseAddress, point.count) == 1,
                let parameters = OSSL_PARAM_BLD_to_param(builder)
            else { return false }
            defer { OSSL_PARAM_free(parameters) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, OpenSSLParameter.ecAlgorithm.cString, nil) else {
                return false
            }
            defer { EVP_PKEY_CTX_free(context) }
            return EVP_PKEY_fromdata_init(context) == 1
                && EVP_PKEY_fromdata(context, &made, authvault_EVP_PKEY_PUBLIC_KEY(), parameters) == 1
        }
        guard built, let made else {
            if let made { EVP_PKEY_free(made) }
            OpenSSLError.clear()
            throw .invalidKey
        }
        guard Self.isOnCurve(made) else {
            EVP_PKEY_free(made)
            throw .invalidKey
        }
        key = made
    }

    deinit {
        EVP_PKEY_free(key)
    }

    private static func isOnCurve(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        let valid = EVP_PKEY_public_check(context) == 1
        if !valid { OpenSSLError.clear() }
        return valid
    }

    /// ECDSA with SHA-256 over `message`; `signature` is JWS's raw `r || s` (RFC 7518 section 3.4), which OpenSSL
    /// wants as a DER ECDSA-Sig-Value.
    func isValidRawSignature(_ signature: UnsafeRawBufferPointer, for message: some DataProtocol) -> Bool {
        guard signature.count == 2 * Self.coordinateBytes, let der = Self.derSignature(signature) else { return false }
        return der.withUnsafeBytes { OpenSSLDigestVerification.isValidSHA256Signature($0, for: message, key: key) }
    }

    private static func derSignature(_ raw: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let half = coordinateBytes
        guard let r = try? OpenSSLBigNumber.make(UnsafeRawBufferPointer(rebasing: raw[..<half])) else { return nil }
        guard let s = try? OpenSSLBigNumber.make(UnsafeRawBufferPointer(rebasing: raw[half...])) else {
            BN_free(r)
            return nil
        }
        // On success the signature owns r and s.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            OpenSSLError.clear()
            return nil
        }
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &encoded)
        guard length > 0, let encoded else {
            OpenSSLError.clear()
            return nil
        }
        defer { authvault_OPENSSL_free(encoded) }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }
}
