internal import SystemPlumbing

/// The worker threads that run blocking libcurl transfers, off Swift's cooperative pool, and the queue
/// that feeds them. Workers start lazily, one per transfer that finds no idle worker, up to the configured
/// maximum, and then live until the pool shuts down, each keeping its easy handle and so its connections.
final class CurlWorkerPool: @unchecked Sendable {
    let configuration: CurlTransportConfiguration

    // Everything below is guarded by `lock`, which is signalled for a new job or the shutdown.
    private let lock = ConditionLock()
    private var queue: [TransferJob] = []
    private var workerCount = 0
    /// Workers not running a transfer. A worker counts as idle again before it resumes its caller, so a
    /// caller's next request finds it and reuses its connection instead of starting a new worker.
    private var idleWorkerCount = 0
    private var isShutDown = false

    init(configuration: CurlTransportConfiguration) {
        self.configuration = configuration
    }

    func submit(_ job: TransferJob) {
        let needsWorker = locked {
            queue.append(job)
            lock.signal()
            guard queue.count > idleWorkerCount, workerCount < configuration.maximumConcurrentTransfers else {
                return false
            }
            workerCount += 1
            idleWorkerCount += 1
            return true
        }
        if needsWorker { startWorker() }
    }

    /// Lets idle workers exit; a worker finishes the queue first. Called when the transport goes away.
    func shutDown() {
        locked {
            isShutDown = true
            lock.broadcast()
        }
    }

    /// Blocks the calling worker until there is a job; nil tells it to exit.
    func nextJob() -> TransferJob? {
        locked {
            while queue.isEmpty && !isShutDown { lock.wait() }
            idleWorkerCount -= 1
            guard !queue.isEmpty else {
                workerCount -= 1
                return nil
            }
            return queue.removeFirst()
        }
    }

    func workerBecameIdle() {
        locked { idleWorkerCount += 1 }
    }

    private func startWorker() {
        guard let worker = CurlWorker(pool: self) else { return workerFailedToStart() }
        if DetachedThread.start({ worker.run() }) != 0 { workerFailedToStart() }
    }

    /// Without any worker, queued jobs would wait forever: fail them.
    private func workerFailedToStart() {
        let stranded: [TransferJob] = locked {
            workerCount -= 1
            idleWorkerCount -= 1
            guard workerCount == 0 else { return [] }
            defer { queue.removeAll() }
            return queue
        }
        for job in stranded { job.finish(.failure(.other("cannot start a network worker thread"))) }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.withLock(body)
    }
}
