#if canImport(Glibc)
import Glibc
#endif

/// What a program AuthVault starts (the browser, the command of `exec`) is given of it.
enum ChildProcess {
    /// Our environment without our own variables: `AUTHVAULT_*` (the vault passphrase above all) are for authvault
    /// alone, and a child that runs authvault again finds the profile and the vault its own way.
    static func environment(from ours: [String: String]) -> [String: String] {
        ours.filter { !$0.key.hasPrefix("AUTHVAULT_") }
    }

    /// Calls `body` with `arguments` and `environment` as the NULL-terminated C string arrays that posix_spawn and
    /// execve take. The environment strings (a token, for `exec`) are wiped before they are freed.
    static func withCArrays<Result>(
        _ arguments: [String], _ environment: [String: String],
        _ body: ([UnsafeMutablePointer<CChar>?], [UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            for entry in envp {
                guard let entry else { continue }
                explicit_bzero(entry, strlen(entry))
                free(entry)
            }
        }
        return body(argv, envp)
    }
}
