#if canImport(Glibc)
    internal import Glibc
#endif

/// Directories walked by descriptor, never by path again: each name is opened or removed relative to the directory
/// already open, so a directory swapped for a link between two calls cannot lead a walk out of the tree.
extension SystemCall {
    /// Opens the directory `name` in `parent` (`AT_FDCWD`: `name` is a path) without following a link: a link, or
    /// anything not a directory, fails with ELOOP or ENOTDIR. `followingLink`: a link to a directory opens it (a
    /// directory the user named, such as $TMPDIR).
    package static func openDirectory(_ name: String, in parent: Int32, followingLink: Bool = false)
        throws(SystemCallError) -> Int32
    {
        try retryingInterrupts("openat") {
            openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (followingLink ? 0 : O_NOFOLLOW))
        }
    }

    /// The names in the open directory `descriptor`, without `.` and `..` (the descriptor stays open).
    package static func directoryEntries(_ descriptor: Int32) throws(SystemCallError) -> [String] {
        try entries(closing: try retryingInterrupts("dup") { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) })
    }

    /// The names in the directory at `path` (a link to a directory is followed), without `.` and `..`.
    package static func directoryEntries(atPath path: String) throws(SystemCallError) -> [String] {
        try entries(closing: try openDirectory(path, in: AT_FDCWD, followingLink: true))
    }

    /// The one `readdir` loop: the names in the directory `descriptor`, which is closed afterwards.
    private static func entries(closing descriptor: Int32) throws(SystemCallError) -> [String] {
        guard let stream = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
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
