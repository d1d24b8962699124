import Dispatch

/// Runs async work (a call into a store) from one of the agent's own threads and blocks that thread until it
/// is done. Only ever called on a dedicated thread: blocking a thread of the cooperative pool would stall it.
enum BlockingWait {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
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
