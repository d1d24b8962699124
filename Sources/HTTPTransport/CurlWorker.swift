/// One worker thread of the pool and the libcurl easy handle it owns. The handle is reset between requests
/// but kept, so its connection cache (keep-alive), DNS cache and TLS sessions carry over; after a failed socket
/// call it is replaced, so the errno of the next failure is that failure's own (`CurlFailureFacts`).
final class CurlWorker {
    private let pool: CurlWorkerPool
    private var handle: CurlEasyHandle

    init?(pool: CurlWorkerPool) {
        guard let handle = CurlEasyHandle() else { return nil }
        self.pool = pool
        self.handle = handle
    }

    /// The thread's body: transfers until the pool shuts down.
    func run() {
        while let job = pool.nextJob() {
            if handle.socketErrno != 0, let fresh = CurlEasyHandle() { handle = fresh }
            let outcome =
                job.isCancelled
                ? .failure(.cancelled)
                : CurlTransfer(job: job, configuration: pool.configuration, handle: handle).perform()
            pool.workerBecameIdle()
            job.finish(outcome)
        }
    }
}
