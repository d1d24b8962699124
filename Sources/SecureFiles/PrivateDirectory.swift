internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Directories that hold the project's files: created with mode 0700, and refused when others can get in.
public enum PrivateDirectory {
    /// Creates `path` and any missing parents. Directories this call creates get mode 0700; the last component,
    /// if it already existed, must not be group- or world-writable or readable (see `checkPrivate`).
    public static func create(_ path: String) throws(FileSystemError) {
        try create(path, beforeCreating: { _ in })
    }

    /// `create`, with `beforeCreating` run just before each `mkdir`: where a test plays the other party that makes
    /// the directory first.
    static func create(_ path: String, beforeCreating: (String) -> Void) throws(FileSystemError) {
        var isNew = false
        try makeParents(of: path, created: &isNew, beforeCreating: beforeCreating)
        if !isNew { try checkPrivate(path) }
    }

    /// Creates a new directory of mode 0700 with a name no one else has (`mkdtemp`) inside `parent`, which must
    /// exist and be one others cannot tamper with (`FileTrust.stickyOrOwnerWritable`: this user's or root's, and
    /// writable by no one else unless sticky, as /tmp is); returns its path.
    public static func createUnique(in parent: String, prefix: String) throws(FileSystemError) -> String {
        try FileTrust.stickyOrOwnerWritable.check(parent)
        var template = Array(FilePath.join(parent, prefix + "XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .from(errno: errno, path: parent, operation: "create a directory in")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes `path` and the files directly in it (not subdirectories); a missing directory is not an error.
    public static func remove(_ path: String) throws(FileSystemError) {
        try remove(path, afterListing: {})
    }

    /// `remove`, walked by descriptor: the directory is opened without following a link and its files removed
    /// relative to it, so a directory swapped for a link (before or during the walk) never leads out of it; a link
    /// (or file) in its place is removed by its name alone. `afterListing` runs between the listing and the
    /// removals: where a test plays the other process that swaps the directory.
    static func remove(_ path: String, afterListing: () -> Void) throws(FileSystemError) {
        let name = FilePath.lastComponent(of: path)
        var current = path
        do throws(SystemCallError) {
            let parent = try SystemCall.openDirectory(FilePath.parent(of: path), in: AT_FDCWD, followingLink: true)
            defer { close(parent) }
            let directory: Int32
            do throws(SystemCallError) {
                directory = try SystemCall.openDirectory(name, in: parent)
            } catch  where error.code == ELOOP || error.code == ENOTDIR {
                try SystemCall.unlink(name, in: parent, directory: false)
                return
            }
            defer { close(directory) }
            let entries = try SystemCall.directoryEntries(directory)
            afterListing()
            for entry in entries {
                current = FilePath.join(path, entry)
                do {
                    try SystemCall.unlink(entry, in: directory, directory: false)
                } catch  where error.code == ENOENT {
                    // Gone already (the command removed it): what was wanted.
                }
            }
            current = path
            try SystemCall.unlink(name, in: parent, directory: true)
        } catch  where error.code == ENOENT {
            return
        } catch {
            throw .from(errno: error.code, path: current, operation: "remove")
        }
    }

    /// Refuses a directory that other users can read, write or enter, or that another user owns.
    /// - Parameter followingLinks: false refuses a symbolic link as not a directory (a socket's directory, where a
    ///   link could point the socket somewhere another user chose).
    public static func checkPrivate(_ path: String, followingLinks: Bool = true) throws(FileSystemError) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            throw .from(errno: errno, path: path, operation: "stat")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path) }
        try FileTrust.private.check(info, path: path)
    }

    /// Refuses the open directory `descriptor` (of `path`) when another user owns it: what this user removes
    /// is only its own.
    public static func checkOwned(descriptor: Int32, path: String) throws(FileSystemError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .from(errno: errno, path: path, operation: "fstat") }
        guard info.st_uid == geteuid() else { throw .foreignOwner(path: path, owner: info.st_uid) }
    }

    private static func makeParents(of path: String, created: inout Bool, beforeCreating: (String) -> Void)
        throws(FileSystemError)
    {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path) }
            return
        }
        let parent = FilePath.parent(of: path)
        if parent != path {
            var ignored = false
            try makeParents(of: parent, created: &ignored, beforeCreating: beforeCreating)
        }
        beforeCreating(path)
        guard mkdir(path, 0o700) == 0 else {
            // EEXIST: someone made it between the stat and here, with a mode and owner of their choosing. It is
            // not ours, so it is checked like one that was there.
            guard errno == EEXIST else { throw .from(errno: errno, path: path, operation: "create directory") }
            return
        }
        created = true
    }
}

/// Path arithmetic on plain strings (FoundationEssentials has no URL path helpers we want on the hot path).
public enum FilePath {
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// What follows the last slash (`path` itself when it has none).
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
