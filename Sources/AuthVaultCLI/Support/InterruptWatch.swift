import Dispatch
import SystemPlumbing
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT and SIGTERM into a call of `handler` instead of the process dying of them, until `stop()`: a long
/// wait (a browser sign-in, the agent) ends cleanly, closing its sockets and restoring the terminal. Watching from
/// the moment `init` returns.
final class InterruptWatch: Sendable {
    private static let signals = [SIGINT, SIGTERM]
    private let sources: Locked<[any DispatchSourceSignal]>

    /// - Parameter handler: called on a Dispatch queue, at most once.
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in Self.signals { sigaddset(&mask, number) }
        // A parent (a test harness, a supervisor) may have left them blocked.
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        let fired = Locked(false)
        var made: [any DispatchSourceSignal] = []
        // Dispatch installs a source later, on its own queue: a signal before that would be ignored and lost.
        let installed = DispatchGroup()
        for number in Self.signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            installed.enter()
            source.setRegistrationHandler { installed.leave() }
            source.setEventHandler {
                let first = fired.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { handler(number) }
            }
            source.resume()
            made.append(source)
        }
        installed.wait()
        sources = Locked(made)
    }

    /// Gives the signals back their default action.
    func stop() {
        let stopped = sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        guard !stopped.isEmpty else { return }
        for source in stopped { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }

    deinit {
        stop()
    }
}
