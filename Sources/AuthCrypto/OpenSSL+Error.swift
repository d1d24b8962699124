internal import COpenSSL

/// OpenSSL's error queue is per thread: every failure path drains it, so a stale entry never surfaces
/// in an unrelated later call on the same thread.
enum OpenSSLError {
    /// The oldest queued error, prefixed by the operation that failed, with the queue cleared.
    static func drain(_ operation: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return .openSSL(operation) }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        let message = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .openSSL("\(operation): \(message)")
    }

    /// Forgets an expected failure (a bad tag or signature).
    static func clear() {
        ERR_clear_error()
    }

    /// For calls that fail only when memory runs out: there is nothing sensible to return.
    static func require(_ succeeded: Bool, _ operation: String) {
        if !succeeded { fatalError("\(drain(operation))") }
    }
}
