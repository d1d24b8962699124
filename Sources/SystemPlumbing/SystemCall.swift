#if canImport(Glibc)
internal import Glibc
#endif

/// A system call that failed: which one, and its error number.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    package let call: String
    package let code: Int32

    package init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    package var description: String { "\(call): \(Self.text(code))" }

    /// The C library's words for an error number.
    package static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}

package enum SystemCall {
    /// Calls `body` again while it fails with EINTR (a signal arrived); -1 with any other errno is thrown.
    package static func retryingInterrupts<Result: SignedInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: call, code: code) }
        }
    }
}
