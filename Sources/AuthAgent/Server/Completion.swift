internal import SystemPlumbing

/// A one-time event that async code can wait for, with or without a bound: a thread finished, the last
/// connection closed, the server stopped.
final class Completion: Sendable {
    private struct State {
        var isDone = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    func finish() {
        let waiters = state.withLock { state in
            state.isDone = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    var isDone: Bool { state.withLock { $0.isDone } }

    func wait() async {
        await wait(timeout: nil)
    }

    /// Returns when done, or when `timeout` has passed.
    func wait(timeout: Duration?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id: Int? = state.withLock { state in
                if state.isDone { return nil }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[id] = continuation
                return id
            }
            guard let id else { return continuation.resume() }
            guard let timeout else { return }
            Task {
                try? await Task.sleep(for: timeout)
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
