import SystemPlumbing
import Testing

@testable import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DetachedThreadTests {
    @Test func theBodyRunsOnAThreadOfItsOwn() async {
        let caller = pthread_self()
        let ran: Bool = await withCheckedContinuation { continuation in
            let status = DetachedThread.start(stackSize: 256 * 1024) {
                continuation.resume(returning: pthread_equal(pthread_self(), caller) == 0)
            }
            #expect(status == 0)
        }
        #expect(ran)
    }

    @Test func aThreadTheSystemRefusesIsReportedAndItsBodyNeverRuns() {
        let ran = Locked(false)
        // A stack no machine can map: pthread_create fails.
        let status = DetachedThread.start(stackSize: 1 << 46) { ran.withLock { $0 = true } }
        #expect(status != 0)
        usleep(50_000)
        #expect(!ran.withLock { $0 })
    }
}

@Suite struct ConditionLockTests {
    @Test func aWaitEndsWhenSignalledOrWhenTheTimeRunsOut() async {
        let lock = ConditionLock()
        lock.lock()
        #expect(!lock.wait(timeout: .milliseconds(20)), "nobody signalled")
        lock.unlock()

        let ready = Locked(false)
        let woken: Bool = await withCheckedContinuation { continuation in
            let waiter: @Sendable () -> Void = {
                lock.lock()
                ready.withLock { $0 = true }
                let signalled = lock.wait(timeout: .seconds(10))
                lock.unlock()
                continuation.resume(returning: signalled)
            }
            DetachedThread.start(waiter)
            while !ready.withLock({ $0 }) { usleep(1_000) }
            lock.withLock { lock.signal() }
        }
        #expect(woken)
    }
}

@Suite struct SystemCallTests {
    @Test func interruptedCallsAreRetriedAndOtherFailuresThrownWithTheirErrorNumber() throws {
        var calls = 0
        let result = try SystemCall.retryingInterrupts("read") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #expect(throws: SystemCallError(call: "close", code: EBADF)) {
            try SystemCall.retryingInterrupts("close") { close(-1) }
        }
        #expect(SystemCallError(call: "close", code: EBADF).description == "close: Bad file descriptor")
    }
}

@Suite struct StreamListenerTests {
    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    static func bind(_ descriptor: Int32, _ address: sockaddr_in) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    @Test func listensAcceptsWithTheAskedFlagsAndReportsABusyPort() throws {
        let listener = try StreamListener.open(family: AF_INET, backlog: 4) { Self.bind($0, Self.loopback(port: 0)) }
        defer { close(listener) }
        #expect(fcntl(listener, F_GETFD) & FD_CLOEXEC != 0 && fcntl(listener, F_GETFL) & O_NONBLOCK != 0)
        #expect(try StreamListener.accept(on: listener, nonBlocking: true) == nil, "nobody is waiting")

        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        let accepted = try #require(try StreamListener.accept(on: listener, nonBlocking: false))
        defer { close(accepted) }
        #expect(fcntl(accepted, F_GETFD) & FD_CLOEXEC != 0 && fcntl(accepted, F_GETFL) & O_NONBLOCK == 0)

        #expect(throws: SystemCallError(call: "bind", code: EADDRINUSE)) {
            try StreamListener.open(family: AF_INET, backlog: 4) { Self.bind($0, bound) }
        }
    }
}
