#if canImport(Glibc)
    import Glibc
#endif

/// How `exec` finds its command, as execvp does: the name itself when it holds a '/', else the name in each
/// directory of the child's PATH (not ours), in turn. Shared by the command that replaces authvault (execve) and
/// the one it supervises (posix_spawn).
enum CommandSearch {
    /// The paths execvp would try for `name`.
    static func candidates(for name: String, environment: [String: String]) -> [String] {
        name.contains("/")
            ? [name] : (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
    }

    /// Calls `start` with each candidate until one starts (returns 0): then 0. Otherwise the errno that kept the
    /// command from starting: ENOENT when no candidate exists, else the last other error (EACCES, ENOEXEC...).
    static func start(_ name: String, environment: [String: String], _ start: (String) -> Int32) -> Int32 {
        var reason = ENOENT
        for path in candidates(for: name, environment: environment) {
            let status = start(path)
            if status == 0 { return 0 }
            if status != ENOENT { reason = status }
        }
        return reason
    }
}
