#if canImport(Glibc)
    internal import Glibc
#endif

/// A mutex with a condition variable (on the monotonic clock), for the worker pools whose threads block waiting
/// for work: `Locked` has no way to wait. Lock it around every read and write of what it guards.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a signal, the lock held on entry and again on return (a wake-up may be spurious: check again).
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal at most `timeout`; false when the time ran out.
    package func wait(timeout: Duration) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = timeout.components
        deadline.tv_sec += Int(seconds)
        deadline.tv_nsec += Int(attoseconds / 1_000_000_000)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes one waiter.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
