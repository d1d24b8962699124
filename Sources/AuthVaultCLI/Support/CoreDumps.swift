internal import CProcessControl
import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps secrets (a typed password, the vault's data key, tokens) out of core dumps. The `authvault` binary
/// refuses them for its whole life, whatever the command: most commands hold a secret at some point, and a rule
/// with no exceptions has no gaps. Not dumpable also means other processes of the same user can neither ptrace
/// this one nor read its /proc/PID/mem or /proc/PID/environ (where a vault passphrase may be).
enum CoreDumps {
    /// The core-size limit the process started with, for a command that `exec` replaces it with.
    private static let inherited = Locked<rlimit?>(nil)

    /// Makes the process non-dumpable and lowers its core-size limit to 0. Only the soft limit is lowered, so
    /// `exec` can give its command the limit the user had. Neither call can fail for these arguments.
    static func refuse() {
        var limit = rlimit()
        if getrlimit(coreSize, &limit) == 0 {
            inherited.withLock { $0 = $0 ?? limit }
            var lowered = limit
            lowered.rlim_cur = 0
            setrlimit(coreSize, &lowered)
        }
        authvault_set_dumpable(0)
    }

    /// Gives back the core-size limit the process started with, just before it becomes another program (execve
    /// makes it dumpable again by itself).
    static func restoreInheritedLimit() {
        guard var limit = inherited.withLock({ $0 }) else { return }
        setrlimit(coreSize, &limit)
    }

    /// RLIMIT_CORE as getrlimit takes it (Swift imports the constant as an enum case).
    private static let coreSize = __rlimit_resource_t(RLIMIT_CORE.rawValue)
}
