internal import COpenSSL

/// Memory operations the optimizer must not shortcut.
enum OpenSSLMemory {
    /// Overwrites `buffer` with zeros in a way that is not optimized away.
    static func cleanse(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        OPENSSL_cleanse(base, buffer.count)
    }

    /// Constant-time comparison of two buffers of the same length.
    static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        precondition(a.count == b.count)
        guard a.count > 0 else { return true }
        return CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0
    }
}
