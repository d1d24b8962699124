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
    /// exist and be private or sticky (/tmp); returns its path.
    public static func createUnique(in parent: String, prefix: String) throws(FileSystemError) -> String {
        var template = Array(FilePath.join(parent, prefix + "XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw .from(errno: errno, path: parent, operation: "create a directory in")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes `path` and the files directly in it (not subdirectories); a missing directory is not an error.
    public static func remove(_ path: String) throws(FileSystemError) {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return }
            throw .from(errno: errno, path: path, operation: "open")
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names where unlink(FilePath.join(path, name)) != 0 && errno != ENOENT {
            throw .from(errno: errno, path: FilePath.join(path, name), operation: "remove")
        }
        guard rmdir(path) == 0 || errno == ENOENT else { throw .from(errno: errno, path: path, operation: "remove") }
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

    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
