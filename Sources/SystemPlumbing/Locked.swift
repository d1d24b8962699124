#if canImport(Glibc)
    internal import Glibc
#endif

/// A value behind a pthread mutex: the same use as `Synchronization.Mutex`, but a lock ThreadSanitizer can see.
/// On Linux, Swift's Mutex hands a contended lock over with FUTEX_LOCK_PI system calls that TSan neither intercepts
/// nor models, so every access it orders looks like a race; pthread_mutex_lock and _unlock are intercepted, which
/// lets `make sanitize` run with no suppression that could hide a real race on our state.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Read and written only with `mutex` held.
    private let value: UnsafeMutablePointer<Value>

    package init(_ initialValue: sending Value) {
        pthread_mutex_init(mutex, nil)
        value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held: any other thread that asks for it waits until `body` returns.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
