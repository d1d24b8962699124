import SystemPlumbing
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking call that a signal interrupts is restarted by `SystemCall`, the one place that handles EINTR. The
/// signal is SIGALRM with a handler that does nothing, installed without SA_RESTART (as a program embedding the
/// library may install one), sent to the blocked thread every 10 ms.
@Suite(.serialized) struct InterruptedCallTests {
    init() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGALRM, &action, nil)
    }

    /// The control: the same signals make a bare `read` fail with EINTR, so the tests below do interrupt.
    @Test func aBareReadFailsWithEINTR() async {
        let (readEnd, writeEnd) = makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let failure = await interruptingEvery10Milliseconds(
            {
                var byte: UInt8 = 0
                return read(readEnd, &byte, 1) < 0 ? errno : 0
            },
            thenUnblocking: {
                var byte: UInt8 = 42
                _ = write(writeEnd, &byte, 1)
            })
        #expect(failure == EINTR)
    }

    @Test func anInterruptedReadIsRetriedUntilItsByteArrives() async {
        let (readEnd, writeEnd) = makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let (count, byte, calls) = await interruptingEvery10Milliseconds(
            {
                var byte: UInt8 = 0
                var calls = 0
                let count = try? SystemCall.retryingInterrupts("read") {
                    calls += 1
                    return read(readEnd, &byte, 1)
                }
                return (count, byte, calls)
            },
            thenUnblocking: {
                var byte: UInt8 = 42
                _ = write(writeEnd, &byte, 1)
            })
        #expect(count == 1)
        #expect(byte == 42)
        #expect(calls > 1, "a signal interrupted the read and it was called again")
    }

    /// Restarting with the whole timeout after each signal would never end while signals keep arriving: the wait
    /// ends at the caller's deadline.
    @Test func anInterruptedPollEndsAtItsDeadline() async {
        let (readEnd, writeEnd) = makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let (ready, calls, waited) = await interruptingEvery10Milliseconds(
            {
                let start = ContinuousClock.now
                var calls = 0
                var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let ready = try? SystemCall.waiting("poll", until: start + .milliseconds(300)) { milliseconds in
                    calls += 1
                    return poll(&watched, 1, milliseconds)
                }
                return (ready, calls, start.duration(to: .now))
            }, signallingAtMost: .seconds(3))
        #expect(ready == 0)
        #expect(calls > 1)
        #expect(waited >= .milliseconds(300))
        #expect(waited < .seconds(2), "the deadline held while signals arrived")
    }

    @Test func anInterruptedWaitForALockIsRetriedUntilTheHolderLetsGo() async throws {
        var template = Array("/tmp/interrupted-lock-XXXXXX".utf8CString)
        let holder = mkstemp(&template)
        try #require(holder >= 0)
        unlink(template)
        // A second open file description of the same file: flock treats it as another holder.
        let waiter = open("/proc/self/fd/\(holder)", O_RDWR | O_CLOEXEC)
        defer {
            close(holder)
            close(waiter)
        }
        try #require(try SystemCall.lock(holder, LOCK_EX, waiting: false))
        #expect(try !SystemCall.lock(waiter, LOCK_EX, waiting: false), "held elsewhere")

        let taken = await interruptingEvery10Milliseconds(
            {
                (try? SystemCall.lock(waiter, LOCK_EX, waiting: true)) ?? false
            }, thenUnblocking: { flock(holder, LOCK_UN) })
        #expect(taken)
    }
}

private func makePipe() -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [-1, -1]
    pipe(&descriptors)
    return (descriptors[0], descriptors[1])
}

/// Runs `body` on a thread of its own, SIGALRM unblocked there, and sends that thread SIGALRM every 10 ms until it
/// returns (for at most `limit`); after 20 signals, runs `unblock` once. The thread waits for the last signal to have
/// been sent before it ends, so no signal goes to a thread that is gone.
private func interruptingEvery10Milliseconds<T: Sendable>(
    _ body: @escaping @Sendable () -> T, thenUnblocking unblock: @Sendable () -> Void = {},
    signallingAtMost limit: Duration = .seconds(10)
) async -> T {
    let state = Locked<(thread: pthread_t?, result: T?, released: Bool)>((nil, nil, false))
    DetachedThread.start {
        // The thread inherits the starting thread's mask, and Dispatch's threads block most signals.
        var alarm = sigset_t()
        sigemptyset(&alarm)
        sigaddset(&alarm, SIGALRM)
        pthread_sigmask(SIG_UNBLOCK, &alarm, nil)
        state.withLock { $0.thread = pthread_self() }
        let result = body()
        state.withLock { $0.result = result }
        while !state.withLock({ $0.released }) { usleep(1_000) }
    }
    let stopSignalling = ContinuousClock.now + limit
    var sent = 0
    while true {
        let (thread, result) = state.withLock { ($0.thread, $0.result) }
        if let result {
            state.withLock { $0.released = true }
            return result
        }
        if let thread, ContinuousClock.now < stopSignalling {
            pthread_kill(thread, SIGALRM)
            sent += 1
            if sent == 20 { unblock() }
        }
        try? await Task.sleep(for: .milliseconds(10))
    }
}
