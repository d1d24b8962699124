import Dispatch

/// Runs async work (a call into a store) from a thread of one's own and blocks that thread until it is done: the
/// other way round from `DedicatedThread`. Only ever called on a dedicated thread: blocking a thread of the
/// cooperative pool would stall it.
package enum BlockingWait {
    package static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let outcome = Outcome<T>()
        Task {
            outcome.value = await work()
            outcome.done.signal()
        }
        outcome.done.wait()
        return outcome.value!
    }

    /// The semaphore orders the write before the read.
    private final class Outcome<T>: @unchecked Sendable {
        var value: T?
        let done = DispatchSemaphore(value: 0)
    }
}
