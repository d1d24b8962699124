#if canImport(Glibc)
    internal import Glibc
#endif

/// Argument and environment lists in the shape posix_spawn and execve take.
package enum CStringArrays {
    /// Calls `body` with `arguments` and `environment` as NULL-terminated C string arrays. The environment strings
    /// (a token, for `exec`) are wiped before they are freed.
    package static func with<Result>(
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
