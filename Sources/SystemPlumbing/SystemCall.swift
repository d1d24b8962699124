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

    /// The call would have blocked (EAGAIN, EWOULDBLOCK): on a non-blocking descriptor, or a socket timeout.
    package var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
}

/// The one place a system call interrupted by a signal (EINTR) is restarted: callers see only real outcomes.
package enum SystemCall {
    /// Calls `body` again while it fails with EINTR (a signal arrived); -1 with any other errno is thrown.
    /// Inlinable, so that each caller compares its own integer type, not through the generic one.
    @inlinable
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

    /// Runs a waiting call such as `poll`, handed the milliseconds left until `deadline` (-1 when nil: no limit).
    /// A signal, or a wake-up a little early, runs it again with the time that remains, so a caller's deadline
    /// holds however many signals arrive. Returns the call's positive result, or 0 once the deadline has passed.
    package static func waiting(
        _ call: String, until deadline: ContinuousClock.Instant?, _ body: (_ milliseconds: Int32) -> Int32
    ) throws(SystemCallError) -> Int32 {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                milliseconds = deadline.pollTimeout(from: .now)
                guard milliseconds > 0 else { return 0 }
            }
            // Not `retryingInterrupts`: that would call again with the milliseconds computed before the signal.
            let result = body(milliseconds)
            if result > 0 { return result }
            let code = errno
            if result < 0, code != EINTR { throw SystemCallError(call: call, code: code) }
        }
    }

    /// Takes an advisory `flock` lock (`LOCK_SH` or `LOCK_EX`) on `descriptor`. Without `waiting`, false when
    /// another holder has it; with `waiting`, blocks until it is free (callers do so on a thread of their own).
    @discardableResult
    package static func lock(_ descriptor: Int32, _ operation: Int32, waiting: Bool) throws(SystemCallError) -> Bool {
        do {
            _ = try retryingInterrupts("flock") { flock(descriptor, waiting ? operation : operation | LOCK_NB) }
            return true
        } catch  where !waiting && error.wouldBlock {
            return false
        }
    }
}
