/// Bytes from OpenSSL's CSPRNG (seeded from the kernel). A failure means the process cannot do
/// cryptography safely at all, so it stops the process rather than return predictable bytes.
public enum SecureRandom {
    public static func bytes(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            OpenSSLRandom.fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Random bytes written straight into secret storage (keys, nonces of secret flows).
    public static func secretBytes(count: Int) -> SecretBytes {
        SecretBytes(count: count) { OpenSSLRandom.fill($0) }
    }
}
