#if canImport(Glibc)
internal import Glibc
#endif

/// Blocking work (a libsecret `_sync` call, scrypt, a blocking `flock`) runs on a thread of its own: Swift's
/// cooperative pool has as many threads as cores (two here), and one blocked thread would stall every task.
enum DedicatedThread {
    /// Runs `work` on a new thread and waits for it without blocking the caller's thread.
    static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            start { continuation.resume(returning: Result { () throws(E) -> T in try work() }) }
        }
        return try result.get()
    }

    /// Starts `body` on a new detached thread. If the system refuses a thread, `body` runs on the caller's thread:
    /// slower for everyone, but still correct.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        if status != 0 {
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().body()
        }
    }
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
