internal import SystemPlumbing

/// One request on its way through the worker pool, and the awaiting caller. Whoever settles it first wins:
/// the worker with its result, or cancellation with `.cancelled` (at once, even while the worker still
/// aborts the transfer), so the caller is resumed exactly once and promptly.
final class TransferJob: Sendable {
    typealias Outcome = Result<HTTPResponse, HTTPError>

    let request: HTTPRequest
    private let state = Locked(State())

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var isCancelled = false
    }

    init(request: HTTPRequest) {
        self.request = request
    }

    /// Read by the transfer's progress callback, which aborts the transfer once this turns true.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Parks the caller until the job settles. Returns false, without parking, when the job was cancelled
    /// before the caller got here: then nothing may be queued.
    func await(with continuation: CheckedContinuation<Outcome, Never>) -> Bool {
        let parked = state.withLock { state in
            guard !state.isCancelled else { return false }
            state.continuation = continuation
            return true
        }
        if !parked { continuation.resume(returning: .failure(.cancelled)) }
        return parked
    }

    func cancel() {
        let continuation = state.withLock { state in
            state.isCancelled = true
            return state.continuation.take()
        }
        continuation?.resume(returning: .failure(.cancelled))
    }

    func finish(_ outcome: Outcome) {
        state.withLock { $0.continuation.take() }?.resume(returning: outcome)
    }
}
