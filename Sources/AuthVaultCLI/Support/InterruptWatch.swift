import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGINT and SIGTERM (or the signals given) into a call of `handler` instead of the process dying of them, until `stop()`: a long
/// wait (a browser sign-in, the agent) ends cleanly, closing its sockets and restoring the terminal. Watching from
/// the moment `init` returns.
///
/// A real handler, not `SIG_IGN` and a Dispatch signal source: an ignored signal that reaches a thread which does
/// not block it is discarded before the source sees it, and a parent (a test harness, a supervisor) leaves threads
/// with either mask. A handled signal is never discarded; the handler hands it to `SignalRelay`'s thread.
final class InterruptWatch: Sendable {
    private let signals: [Int32]
    private let watching = Locked(true)

    /// - Parameters:
    ///   - signals: those watched; `exec` also forwards SIGHUP to its command.
    ///   - once: the handler is called for the first signal only (a wait ends once); false passes on every one.
    ///   - handler: called on the relay's thread.
    init(
        signals: [Int32] = [SIGINT, SIGTERM], once: Bool = true,
        _ handler: @escaping @Sendable (ReceivedSignal) -> Void
    ) {
        self.signals = signals
        // Without a relay (no descriptor left for its pipe) the signals keep their default action: they still stop.
        guard let relay = SignalRelay.shared else { return }
        let fired = Locked(false)
        relay.listen { received in
            if fired.withLock({ done in
                defer { done = once }
                return !done
            }) {
                handler(received)
            }
        }
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = SignalRelay.handler
        // SA_RESTART as signal(2) gives: the calls it interrupts go on.
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in signals { sigaction(number, &action, nil) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in signals { sigaddset(&mask, number) }
        // A parent may have left them blocked: this thread, at least, takes them.
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// Gives the signals back their default action.
    func stop() {
        guard
            watching.withLock({ active in
                defer { active = false }
                return active
            }), let relay = SignalRelay.shared
        else { return }
        for number in signals { signal(number, SIG_DFL) }
        relay.listen(nil)
    }

    deinit {
        stop()
    }
}

/// A signal as it arrived: its number, and whether the kernel sent it rather than a process (`kill`).
struct ReceivedSignal: Sendable {
    let number: Int32
    /// The kernel's own (si_code SI_KERNEL): a terminal's Ctrl-C goes so to its whole foreground process group.
    let isFromKernel: Bool
}

/// Carries a signal from its handler, where almost nothing may be done, to a thread where anything may: the handler
/// writes the signal's number, with its top bit set when the kernel sent it, into a pipe that a thread of the
/// relay's own reads.
private final class SignalRelay: Sendable {
    /// Made once, before any handler is installed; never closed.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    static let shared = SignalRelay()

    /// Async-signal-safe: one `write` to a non-blocking pipe, errno kept for the interrupted code.
    static let handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
        number, info, _ in
        let saved = errno
        // si_code > 0 is the kernel's (SI_KERNEL, a terminal's key); 0 or below a process's (SI_USER, SI_QUEUE...).
        let fromKernel: UInt8 = (info?.pointee.si_code ?? 0) > 0 ? 0x80 : 0
        var byte = UInt8(truncatingIfNeeded: number) | fromKernel
        _ = write(SignalRelay.writeEnd, &byte, 1)
        errno = saved
    }

    private let listener = Locked<(@Sendable (ReceivedSignal) -> Void)?>(nil)

    private init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        Self.writeEnd = ends[1]
        let readEnd = ends[0]
        let started = DetachedThread.start(stackSize: 64 * 1024) { [self] in
            var byte: UInt8 = 0
            while (try? SystemCall.retryingInterrupts("read") { read(readEnd, &byte, 1) }) == 1 {
                listener.withLock { $0 }?(ReceivedSignal(number: Int32(byte & 0x7F), isFromKernel: byte & 0x80 != 0))
            }
        }
        if started != 0 {
            close(ends[0])
            close(ends[1])
            return nil
        }
    }

    func listen(_ listener: (@Sendable (ReceivedSignal) -> Void)?) {
        self.listener.withLock { $0 = listener }
    }
}
