#if canImport(Glibc)
    internal import Glibc
#endif

extension FileTrust {
    /// Refuses `path` unless nobody but this user or root can replace it: the file itself (`ownerWritable`) and
    /// every directory above it, both as the name leads and where its links resolve, belong to this user or root
    /// and are writable by nobody else. A sticky directory (/tmp) may be writable by all: there only a file's owner
    /// can rename or remove it, and what lies below is checked in turn. A missing tail (a file or directory about
    /// to be created) is checked from its nearest existing directory. For a program other tools will run, and for
    /// the files that name it.
    public static func checkWithAncestors(_ path: String) throws(FileSystemError) {
        let absolute = path.hasPrefix("/") ? path : FilePath.join(currentDirectory(), path)
        var chains = [absolute]
        if let resolved = resolvedExistingPart(of: absolute), resolved != absolute { chains.append(resolved) }
        for chain in chains {
            for (position, directory) in ancestors(of: chain).enumerated() {
                var info = stat()
                guard stat(directory, &info) == 0 else {
                    // The tail that does not exist yet: nothing there to replace.
                    if errno == ENOENT || errno == ENOTDIR { continue }
                    throw .from(errno: errno, path: directory, operation: "stat")
                }
                try (position == 0 ? FileTrust.ownerWritable : .stickyOrOwnerWritable).check(info, path: directory)
            }
        }
    }

    /// `path`, then each directory above it up to `/`.
    private static func ancestors(of path: String) -> [String] {
        var chain = [path]
        while let last = chain.last, last != "/" { chain.append(FilePath.parent(of: last)) }
        return chain
    }

    /// Where the longest existing part of `path` resolves, with the missing rest appended.
    private static func resolvedExistingPart(of path: String) -> String? {
        var existing = path
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                return missing.reversed().reduce(String(cString: resolved)) { FilePath.join($0, $1) }
            }
            guard existing != "/" else { return nil }
            missing.append(String(existing[existing.index(after: existing.lastIndex(of: "/")!)...]))
            existing = FilePath.parent(of: existing)
        }
    }

    private static func currentDirectory() -> String {
        guard let directory = getcwd(nil, 0) else { return "/" }
        defer { free(directory) }
        return String(cString: directory)
    }
}
