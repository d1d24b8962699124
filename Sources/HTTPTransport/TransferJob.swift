internal import SystemPlumbing

/// One request on its way through the worker pool, and the awaiting caller. Whoever settles it first wins:
/// the worker with its result, or cancellation with `.cancelled` (at once, even while the worker still
/// aborts the transfer), so the caller is resumed exactly once and promptly.
final class TransferJob: Sendable {
    typealias Outcome = Result<HTTPResponse, HTTPError>

    let request: HTTPRequest
    private let outcome = OneShot<Outcome>()
    private let cancelled = Locked(false)

    init(request: HTTPRequest) {
        self.request = request
    }

    /// Read by the transfer's progress callback, which aborts the transfer once this turns true.
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Hands the job to `submit` and waits until it settles; a job cancelled before the caller got here is not
    /// handed over (a worker that takes one cancelled in between finds it cancelled before it starts).
    func run(submit: (TransferJob) -> Void) async -> Outcome {
        if !isCancelled { submit(self) }
        return await outcome.value()
    }

    func cancel() {
        cancelled.withLock { $0 = true }
        outcome.settle(.failure(.cancelled))
    }

    func finish(_ result: Outcome) {
        outcome.settle(result)
    }
}
