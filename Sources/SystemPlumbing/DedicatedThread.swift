/// Blocking work (a libsecret `_sync` call, scrypt, a blocking `flock`) runs on a thread of its own: Swift's
/// cooperative pool has as many threads as cores (two here), and one blocked thread would stall every task.
/// The other way round is `BlockingWait`.
package enum DedicatedThread {
    /// Runs `work` on a new thread and waits for it without blocking the caller's thread.
    package static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            start { continuation.resume(returning: Result { () throws(E) -> T in try work() }) }
        }
        return try result.get()
    }

    /// Starts `body` on a new detached thread. If the system refuses a thread, `body` runs on the caller's thread:
    /// slower for everyone, but still correct.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        if DetachedThread.start(body) != 0 { body() }
    }
}
