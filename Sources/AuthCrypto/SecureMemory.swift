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

    /// Constant-time comparison of two buffers of the same length: every byte is read and the differences are
    /// gathered without a branch on them, as CRYPTO_memcmp does. Not CRYPTO_memcmp itself: comparing two records'
    /// secrets (a warm token from the Secret Service) must not be what loads libcrypto, 3.7 M instructions.
    static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        precondition(a.count == b.count)
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
