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

    /// `environment` with the runner's sanitizer options added where it sets none; nil (inherit everything) stays nil.
    public static func added(to environment: [String: String]?) -> [String: String]? {
        guard var environment else { return nil }
        for variable in variables where environment[variable] == nil {
            environment[variable] = ProcessInfo.processInfo.environment[variable]
        }
        return environment
    }
}
