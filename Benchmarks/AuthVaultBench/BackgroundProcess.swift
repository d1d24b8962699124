#if canImport(Glibc)
    import Glibc
#endif

/// A server the benchmark runs beside it (the agent, a peer), its output discarded, stopped with SIGTERM.
struct BackgroundProcess {
    let pid: pid_t

    /// Starts `arguments` and waits (up to 10 s) until something accepts connections on the Unix socket `socketPath`.
    static func start(_ arguments: [String], environment: [String]? = nil, socketPath: String) throws
        -> BackgroundProcess
    {
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &fileActions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // The children of a shell script may have SIGTERM blocked or ignored; the servers started here must not.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var terminate = sigset_t()
        sigemptyset(&none)
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &terminate)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envStrings = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envStrings?.forEach { free($0) } }
        var pid = pid_t()
        let result =
            envStrings.map { posix_spawnp(&pid, arguments[0], &fileActions, &attributes, argv, $0) }
            ?? posix_spawnp(&pid, arguments[0], &fileActions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError.failed(arguments[0], result) }
        let process = BackgroundProcess(pid: pid)
        let deadline = monotonicNow() + 10
        while !Self.accepts(socketPath) {
            guard monotonicNow() < deadline else {
                process.stop()
                throw SpawnError.failed("\(arguments.joined(separator: " ")) (never ready)", -1)
            }
            usleep(5_000)
        }
        return process
    }

    private static func accepts(_ path: String) -> Bool {
        guard let descriptor = connectToUnixSocket(path) else { return false }
        close(descriptor)
        return true
    }

    /// SIGTERM, and SIGKILL if it has not exited within 5 s.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = monotonicNow() + 5
        while waitpid(pid, &status, WNOHANG) == 0 {
            if monotonicNow() > deadline { kill(pid, SIGKILL) }
            usleep(2_000)
        }
    }
}
