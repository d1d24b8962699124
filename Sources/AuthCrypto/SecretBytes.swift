/// Bytes that must not leak: keys, derived secrets, decrypted plaintexts.
///
/// The buffer lives in one heap allocation that is overwritten with zeros when the last copy goes away
/// (best effort: copies the caller makes through `withUnsafeBytes` are the caller's to clean).
/// `description` never shows the content, and `==` takes the same time wherever the bytes differ.
public struct SecretBytes: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private let storage: SecretStorage

    /// Copies `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        let copied: SecretStorage? = bytes.withContiguousStorageIfAvailable { buffer in
            SecretStorage(copying: UnsafeRawBufferPointer(buffer))
        }
        if let copied {
            storage = copied
        } else {
            var scratch = Array(bytes)
            storage = scratch.withUnsafeBytes { SecretStorage(copying: $0) }
            scratch.withUnsafeMutableBytes { SecureMemory.cleanse($0) }
        }
    }

    /// Copies `bytes`: `init(_:)` for the buffers C calls hand back, without its generic look for contiguous storage.
    public init(_ bytes: UnsafeRawBufferPointer) {
        storage = SecretStorage(copying: bytes)
    }

    /// The UTF-8 encoding of `string` (a password, a token).
    public init(utf8 string: String) {
        self.init(string.utf8)
    }

    /// `count` zero bytes.
    public init(zeroedCount count: Int) {
        self.init(count: count) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// Lets OpenSSL write a secret straight into its final buffer, so no other copy of it exists.
    /// If `body` throws, the partly written buffer is cleansed and freed.
    init<E: Error>(count: Int, initializingWith body: (UnsafeMutableRawBufferPointer) throws(E) -> Void) throws(E) {
        let storage = SecretStorage(count: count)
        try body(storage.buffer)
        self.storage = storage
    }

    public var count: Int { storage.buffer.count }

    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(storage.buffer))
    }

    /// Constant time in the content; the length is not treated as secret.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in ConstantTime.equals(left, right) } }
    }

    public var description: String { "SecretBytes(<redacted> \(count) bytes)" }
    public var debugDescription: String { description }
}

/// The one allocation behind `SecretBytes`; never mutated after initialization, so it is safe to share.
private final class SecretStorage: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer

    init(count: Int) {
        precondition(count >= 0, "SecretBytes count must not be negative")
        // One spare byte so the base address is never nil, even for an empty secret.
        let allocation = UnsafeMutableRawBufferPointer.allocate(byteCount: count + 1, alignment: 16)
        allocation.initializeMemory(as: UInt8.self, repeating: 0)
        buffer = UnsafeMutableRawBufferPointer(rebasing: allocation[0..<count])
    }

    convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count)
        buffer.copyMemory(from: bytes)
    }

    deinit {
        SecureMemory.cleanse(buffer)
        buffer.baseAddress!.deallocate()
    }
}
