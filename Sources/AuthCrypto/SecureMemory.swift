internal import COpenSSL

#if canImport(Glibc)
    internal import Glibc
#endif

/// Memory operations the optimizer must not shortcut.
enum SecureMemory {
    /// Overwrites `buffer` with zeros in a way that is not optimized away. glibc's explicit_bzero rather than
    /// OPENSSL_cleanse: every secret is wiped when dropped, and a token served through the agent must not be what
    /// loads libcrypto.
    static func cleanse(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        explicit_bzero(base, buffer.count)
    }

    /// Constant-time comparison of two buffers of the same length.
    static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        precondition(a.count == b.count)
        guard a.count > 0 else { return true }
        return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
    }
}
