/// A value that arrives once, for any number of async waiters, with or without a bound on the wait: a job's result
/// or its deadline, whichever comes first; a thread finished; the last connection closed; a stop signal. The first
/// `settle` wins and later ones change nothing; a waiter that comes after it gets the value at once.
package final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [Int: CheckedContinuation<Value?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Hands `value` to every waiter, present and future; false, and nothing changes, when a value came first.
    @discardableResult
    package func settle(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value?, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters ?? [] { waiter.resume(returning: value) }
        return waiters != nil
    }

    package var isSettled: Bool { state.withLock { $0.value != nil } }

    /// The value, once it is there.
    package func value() async -> Value {
        // Without a bound the wait ends only with a value.
        await value(timeout: nil)!
    }

    /// The value, or nil when `timeout` passed first.
    package func value(timeout: Duration?) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let (id, settled): (Int?, Value?) = state.withLock { state in
                if let value = state.value { return (nil, value) }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[id] = continuation
                return (id, nil)
            }
            guard let id else { return continuation.resume(returning: settled) }
            guard let timeout else { return }
            Task {
                try? await Task.sleep(for: timeout)
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
            }
        }
    }
}

/// A one-time event with no value: `finish()` it, `wait()` for it.
package typealias Completion = OneShot<Void>

extension OneShot where Value == Void {
    package func finish() { settle(()) }

    package var isDone: Bool { isSettled }

    package func wait() async { await value() }

    /// Returns when done, or when `timeout` has passed.
    package func wait(timeout: Duration?) async { _ = await value(timeout: timeout) }
}
