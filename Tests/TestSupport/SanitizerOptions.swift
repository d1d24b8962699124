import Foundation

/// Under `make sanitize` (Scripts/sanitize.sh) the test runner has the sanitizers' options (where reports go, the
/// suppressions); a child started with an environment of its own gets them too, so a sanitized `authvault` run with
/// `PATH` alone reports like every other process instead of failing on what the suppressions cover.
public enum SanitizerOptions {
    static let variables = ["TSAN_OPTIONS", "ASAN_OPTIONS", "LSAN_OPTIONS"]

    /// Whether this run is `make sanitize`'s: the sanitizers' runtimes start threads and map memory of their own.
    public static var areSet: Bool {
        variables.contains { ProcessInfo.processInfo.environment[$0] != nil }
    }

    /// Why a program with libfaketime preloaded cannot run under `make sanitize`: a system library and the
    /// toolchain's runtimes deadlock, before any code of ours runs. Under TSan they call each other's
    /// clock_gettime at start-up ("Unexpected recursive calls"); under ASan the allocator, holding its own lock,
    /// calls libfaketime's clock_gettime, whose dlsym calls malloc (seen in gdb; even `authvault --version` hangs).
    public static let fakeTimeDeadlock = "libfaketime deadlocks with the sanitizers' runtimes in clock_gettime"

    /// `environment` with the runner's sanitizer options added where it sets none; nil (inherit everything) stays nil.
    public static func added(to environment: [String: String]?) -> [String: String]? {
        guard var environment else { return nil }
        for variable in variables where environment[variable] == nil {
            environment[variable] = ProcessInfo.processInfo.environment[variable]
        }
        return environment
    }
}
