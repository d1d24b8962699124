import Dispatch

/// Runs async work to its end from libFuzzer's synchronous callback (the work runs on the cooperative pool).
public func runBlocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}
