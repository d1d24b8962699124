#if canImport(Glibc)
    internal import Glibc
#endif

/// Listening stream sockets, for the loopback redirect listener (TCP) and the agent (a Unix socket): non-blocking
/// and close-on-exec, so a connection that vanishes between poll and accept cannot stall an accept loop and no
/// child inherits them.
package enum StreamListener {
    /// A socket of `family`, made ready by `prepare` (socket options, permissions), bound by `bind` (a `bind(2)`
    /// call with the address), listening with `backlog`. On failure nothing is left open.
    package static func open(
        family: Int32, backlog: Int32, prepare: (Int32) -> Void = { _ in }, bind: (Int32) -> Int32
    ) throws(SystemCallError) -> Int32 {
        let descriptor = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemCallError(call: "socket", code: errno) }
        prepare(descriptor)
        guard bind(descriptor) == 0 else {
            let code = errno
            close(descriptor)
            throw SystemCallError(call: "bind", code: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw SystemCallError(call: "listen", code: code)
        }
        return descriptor
    }

    /// The next waiting connection, close-on-exec (and non-blocking if asked); nil when none is waiting.
    package static func accept(on listener: Int32, nonBlocking: Bool) throws(SystemCallError) -> Int32? {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retryingInterrupts("accept") { Glibc.accept(listener, nil, nil) }
        } catch {
            if error.code == EAGAIN || error.code == EWOULDBLOCK || error.code == ECONNABORTED { return nil }
            throw error
        }
        // Glibc's module has no accept4: the flags are set right after (Linux does not inherit them).
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        return descriptor
    }
}
