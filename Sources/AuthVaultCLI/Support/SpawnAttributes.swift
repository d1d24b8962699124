#if canImport(Glibc)
    import Glibc
#endif

/// How authvault starts another program with posix_spawn (the browser, `exec`'s supervised command): with no signal
/// blocked and the given signals at their default action, whatever mask and handlers authvault has or inherited.
enum SpawnAttributes {
    /// Calls `body` with the attributes; `flags` adds to the signal flags (the browser's new session).
    static func with<Result>(
        defaultSignals signals: [Int32], flags: Int32 = 0, _ body: (inout posix_spawnattr_t) -> Result
    ) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for number in signals { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return body(&attributes)
    }

    /// A `waitpid` status as a shell says it: the exit status, or 128 + the signal's number that ended the child.
    static func exitStatus(ofWaitStatus status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
