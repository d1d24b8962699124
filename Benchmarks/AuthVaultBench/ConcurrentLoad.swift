#if canImport(Glibc)
    import Glibc
#endif

/// A client that asks with one line on a new connection and reads one line back, as `authvault token` asks the
/// agent (a connection per request). The same client measures the agent and its peer.
struct LineClient: Sendable {
    let socketPath: String
    let request: [UInt8]
    /// A reply must start with these bytes to count.
    let expectedPrefix: [UInt8]

    /// One exchange: the reply's length, newline included; nil when it failed or the reply was not the expected one.
    func exchange(buffer: inout [UInt8]) -> Int? {
        guard let descriptor = connectToUnixSocket(socketPath) else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var received = 0
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress! + received, $0.count - received, 0)
            }
            guard count > 0 else { return nil }
            if let newline = buffer[received..<received + count].firstIndex(of: 0x0A) {
                return buffer.starts(with: expectedPrefix) ? newline + 1 : nil
            }
            received += count
            guard received < buffer.count else { return nil }
        }
    }
}

/// What client threads asking as fast as they can achieved; runs add up.
struct LoadResult {
    var good = 0
    var failures = 0
    var elapsed = 0.0
    /// Seconds per exchange, good or not.
    var latencies = Samples()

    /// Good replies a second.
    var rate: Double { Double(good) / elapsed }

    static func + (first: LoadResult, second: LoadResult) -> LoadResult {
        var sum = first
        sum.good += second.good
        sum.failures += second.failures
        sum.elapsed += second.elapsed
        for value in second.latencies.values { sum.latencies.add(value) }
        return sum
    }

    var summary: String {
        formatRate(rate) + ", p50 " + formatDuration(latencies.median) + ", p99 "
            + formatDuration(latencies.percentile(0.99))
            + (failures > 0 ? ", \(failures) failed" : "")
    }
}

/// `clients` threads, each repeating `client.exchange` for `seconds`.
func concurrentLoad(_ client: LineClient, clients: Int, seconds: Double) -> LoadResult {
    let workers = (0..<clients).map { _ in LoadWorker(client: client) }
    let deadline = monotonicNow() + seconds
    let started = monotonicNow()
    let threads = workers.map { worker in startThread { worker.run(until: deadline) } }
    for thread in threads { pthread_join(thread, nil) }
    var result = LoadResult(elapsed: monotonicNow() - started)
    for worker in workers {
        result.good += worker.good
        result.failures += worker.failures
        for value in worker.latencies { result.latencies.add(value) }
    }
    return result
}

/// One client thread's counts; read only after the thread is joined.
private final class LoadWorker: @unchecked Sendable {
    let client: LineClient
    var latencies: [Double] = []
    var good = 0
    var failures = 0

    init(client: LineClient) {
        self.client = client
        latencies.reserveCapacity(200_000)
    }

    func run(until deadline: Double) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let start = monotonicNow()
            guard start < deadline else { return }
            let answered = client.exchange(buffer: &buffer) != nil
            latencies.append(monotonicNow() - start)
            if answered { good += 1 } else { failures += 1 }
        }
    }
}

private final class ThreadBody: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

private func startThread(_ body: @escaping () -> Void) -> pthread_t {
    var thread = pthread_t()
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, box)
    precondition(status == 0, "pthread_create failed: \(status)")
    return thread
}
