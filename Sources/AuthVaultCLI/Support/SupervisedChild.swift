import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// `exec`'s command when authvault stays its parent (to serve it credentials while it runs): started with the
/// default signal actions, SIGINT, SIGTERM and SIGHUP sent to authvault passed on to it, and waited for without
/// holding a thread of the cooperative pool.
///
/// The command stays in authvault's process group, the terminal's foreground one, so a terminal's Ctrl-C reaches it
/// directly: that SIGINT (the kernel's) is not passed on, as sudo does, or the command would get two (terraform quits
/// at once on a second). A SIGINT a process sends authvault (`kill -INT PID`) is passed on; one a process sends the
/// whole group (`kill -INT -PGID`) reaches the command twice, since the two sends look alike.
enum SupervisedChild {
    static let forwardedSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `command` (found as `CommandSearch` says) and returns its exit status, 128 + the signal's
    /// number when a signal ended it; or the errno that kept it from starting (ENOENT when not found).
    static func run(_ command: [String], environment: [String: String]) async -> Result<Int32, SpawnFailure> {
        // Watching before the start: a signal that arrives before the child exists is passed on once it does.
        let target = Locked(Target.starting(pending: []))
        let watch = InterruptWatch(signals: forwardedSignals, once: false) { received in
            target.withLock { target in
                switch target {
                case .starting(let pending): target = .starting(pending: pending + [received.number])
                case .running(let pid):
                    // The terminal's Ctrl-C went to the whole foreground group: the command has it already.
                    guard !(received.number == SIGINT && received.isFromKernel) else { return }
                    kill(pid, received.number)
                case .reaped: break
                }
            }
        }
        defer { watch.stop() }
        let pid: pid_t
        switch spawn(command, environment: environment) {
        case .success(let started): pid = started
        case .failure(let failure): return .failure(failure)
        }
        target.withLock { target in
            if case .starting(let pending) = target { pending.forEach { kill(pid, $0) } }
            target = .running(pid)
        }
        let status = await DedicatedThread.run { () -> Int32 in
            var status: Int32 = 0
            _ = try? SystemCall.retryingInterrupts("waitpid") { waitpid(pid, &status, 0) }
            target.withLock { $0 = .reaped }
            return status
        }
        return .success(SpawnAttributes.exitStatus(ofWaitStatus: status))
    }

    struct SpawnFailure: Error {
        let code: Int32
    }

    /// Where a forwarded signal goes.
    private enum Target {
        /// Kept for the child once it exists.
        case starting(pending: [Int32])
        case running(pid_t)
        /// Its number may already be another process's: nothing more is sent.
        case reaped
    }

    private static func spawn(_ command: [String], environment: [String: String]) -> Result<pid_t, SpawnFailure> {
        CoreDumps.restoreInheritedLimit()
        defer { CoreDumps.refuse() }
        return SpawnAttributes.with(defaultSignals: forwardedSignals + [SIGPIPE]) { attributes in
            CStringArrays.with(command, environment) { argv, envp in
                var pid: pid_t = 0
                let reason = CommandSearch.start(command[0], environment: environment) { path in
                    posix_spawn(&pid, path, nil, &attributes, argv, envp)
                }
                return reason == 0 ? .success(pid) : .failure(SpawnFailure(code: reason))
            }
        }
    }
}
