internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// What the serving thread and its callers share: the listening sockets and the outcome of the wait.
///
/// Whoever ends the wait (the callback, the time-out, `cancel()` from any thread) shuts the listening sockets down
/// at once: they stop accepting, a new listener may bind the port, and the serving thread wakes. Only the serving
/// thread closes them, after it has left `poll` (which holds a reference to each socket it waits on), so a
/// descriptor is never closed under a thread that still uses it; waiters are resumed after that close, so the
/// port is entirely free when `waitForCallback()` returns or throws.
final class ListenerCore: Sendable {
    typealias Outcome = Result<AuthorizationCallback, LoopbackError>

    let listeners: [Int32]
    let wakeup: Wakeup
    private let state = Locked(State())

    private struct State {
        var isFinished = false
        var listenersClosed = false
        /// Kept strongly only until handed to a waiter: from then on the caller owns the callback, and releasing it
        /// sends the browser the default page.
        var outcome: Outcome?
        weak var handedOut: AuthorizationCallback?
        var waiters: [CheckedContinuation<Outcome, Never>] = []

        mutating func deliver() -> Outcome {
            switch outcome {
            case .success(let callback):
                outcome = nil
                handedOut = callback
                return .success(callback)
            case .failure(let error):
                return .failure(error)
            case nil:
                // Handed out before and already released by its owner.
                return handedOut.map { .success($0) } ?? .failure(.cancelled)
            }
        }
    }

    init(listeners: [Int32], wakeup: Wakeup) {
        self.listeners = listeners
        self.wakeup = wakeup
    }

    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Ends the wait with `outcome` unless it has already ended. Safe from any thread.
    @discardableResult
    func finish(_ outcome: Outcome) -> Bool {
        // Under the lock: the serving thread closes the sockets only after it has seen `isFinished`, so they are
        // still open (and not some other file's reused descriptors) while they are shut down here.
        let first = state.withLock { state in
            guard !state.isFinished else { return false }
            state.isFinished = true
            state.outcome = outcome
            listeners.forEach { _ = shutdown($0, Int32(SHUT_RDWR)) }
            return true
        }
        if first { wakeup.signal() }
        return first
    }

    /// Called once by the serving thread when it has left its poll loop: closes the listening sockets and hands the
    /// outcome to every waiter.
    func closeListeners() {
        listeners.forEach { _ = close($0) }
        let (waiters, outcome): ([CheckedContinuation<Outcome, Never>], Outcome?) = state.withLock { state in
            state.listenersClosed = true
            defer { state.waiters = [] }
            return (state.waiters, state.waiters.isEmpty ? nil : state.deliver())
        }
        if let outcome { waiters.forEach { $0.resume(returning: outcome) } }
    }

    func wait() async -> Outcome {
        await withCheckedContinuation { continuation in
            let outcome: Outcome? = state.withLock { state in
                guard state.listenersClosed else {
                    state.waiters.append(continuation)
                    return nil
                }
                return state.deliver()
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Every connection waiting on the listening sockets. Serving thread only.
    func acceptPending() -> [Int32] {
        var accepted: [Int32] = []
        for listener in listeners {
            while let descriptor = try? StreamListener.accept(on: listener, nonBlocking: true) {
                accepted.append(descriptor)
            }
        }
        return accepted
    }
}
