internal import COpenSSL
import FoundationEssentials

enum OpenSSLDigest {
    /// Hashes region by region, so data in several pieces is never copied.
    static func sha256(_ data: some DataProtocol) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("\(OpenSSLError.drain("EVP_MD_CTX_new"))") }
        defer { EVP_MD_CTX_free(context) }
        OpenSSLError.require(
            EVP_DigestInit_ex2(context, OpenSSLAlgorithms.sha256.pointer, nil) == 1, "EVP_DigestInit_ex2")
        for region in data.regions {
            region.withUnsafeBytes { buffer in
                OpenSSLError.require(
                    EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1, "EVP_DigestUpdate")
            }
        }
        return [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { output, initialized in
            var length: UInt32 = 0
            OpenSSLError.require(EVP_DigestFinal_ex(context, output.baseAddress, &length) == 1, "EVP_DigestFinal_ex")
            initialized = Int(length)
        }
    }
}
