#if canImport(Glibc)
    internal import Glibc
#endif

/// Directories walked by descriptor, never by path again: each name is opened or removed relative to the directory
/// already open, so a directory swapped for a link between two calls cannot lead a walk out of the tree.
extension SystemCall {
    /// Opens the directory `name` in `parent` (`AT_FDCWD`: `name` is a path) without following a link: a link, or
    /// anything not a directory, fails with ELOOP or ENOTDIR.
    package static func openDirectory(_ name: String, in parent: Int32) throws(SystemCallError) -> Int32 {
        try retryingInterrupts("openat") {
            openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        }
    }

    /// The names in the open directory `descriptor`, without `.` and `..` (the descriptor stays open).
    package static func directoryEntries(_ descriptor: Int32) throws(SystemCallError) -> [String] {
        let copy = try retryingInterrupts("dup") { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
        guard let stream = fdopendir(copy) else {
            let code = errno
            close(copy)
            throw SystemCallError(call: "fdopendir", code: code)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the entry `name` of `parent` by its name alone (a link goes, not what it leads to); `directory`: an
    /// empty directory.
    package static func unlink(_ name: String, in parent: Int32, directory: Bool) throws(SystemCallError) {
        _ = try retryingInterrupts("unlinkat") { unlinkat(parent, name, directory ? AT_REMOVEDIR : 0) }
    }
}
