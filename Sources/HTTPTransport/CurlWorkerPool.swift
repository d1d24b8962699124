internal import Glibc

/// The worker threads that run blocking libcurl transfers, off Swift's cooperative pool, and the queue
/// that feeds them. Workers start lazily, one per transfer that finds no idle worker, up to the configured
/// maximum, and then live until the pool shuts down, each keeping its easy handle and so its connections.
final class CurlWorkerPool: @unchecked Sendable {
    let configuration: CurlTransportConfiguration

    // Everything below is guarded by `mutex`; `wakeUp` is signalled for a new job or the shutdown.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wakeUp = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [TransferJob] = []
    private var workerCount = 0
    /// Workers not running a transfer. A worker counts as idle again before it resumes its caller, so a
    /// caller's next request finds it and reuses its connection instead of starting a new worker.
    private var idleWorkerCount = 0
    private var isShutDown = false

    init(configuration: CurlTransportConfiguration) {
        self.configuration = configuration
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wakeUp, nil)
    }

    deinit {
        pthread_cond_destroy(wakeUp)
        pthread_mutex_destroy(mutex)
        wakeUp.deallocate()
        mutex.deallocate()
    }

    func submit(_ job: TransferJob) {
        let needsWorker = locked {
            queue.append(job)
            pthread_cond_signal(wakeUp)
            guard queue.count > idleWorkerCount, workerCount < configuration.maximumConcurrentTransfers else { return false }
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
            pthread_cond_broadcast(wakeUp)
        }
    }

    /// Blocks the calling worker until there is a job; nil tells it to exit.
    func nextJob() -> TransferJob? {
        locked {
            while queue.isEmpty && !isShutDown { pthread_cond_wait(wakeUp, mutex) }
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
        let context = Unmanaged.passRetained(worker).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<CurlWorker>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        pthread_attr_destroy(&attributes)
        if status != 0 {
            Unmanaged<CurlWorker>.fromOpaque(context).release()
            workerFailedToStart()
        }
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
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
