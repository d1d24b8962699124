#if canImport(Glibc)
    internal import Glibc
#endif

/// Who besides this user may touch a file the project reads, checked on its `stat` before the content is used.
public enum FileTrust: Sendable {
    /// Secrets (the vault's files): owned by this user, neither readable nor writable by anyone else (0600).
    case `private`
    /// Files that steer where tokens go (the configuration, a CA bundle): anyone may read them, but only their
    /// owner may change them, and the owner is this user or root (a system bundle such as /etc/ssl/certs/...).
    case ownerWritable
    /// A directory new entries are made in: as `ownerWritable`, except that a sticky directory (/tmp) owned by this
    /// user or root may be writable by all, since there only an entry's owner can rename or remove it.
    case stickyOrOwnerWritable

    /// Refuses `info` (of `path`) with the command that fixes it: `chown` for a stranger's file, else `chmod`.
    func check(_ info: stat, path: String) throws(FileSystemError) {
        let me = geteuid()
        switch self {
        case .private:
            guard info.st_uid == me else { throw .foreignOwner(path: path, owner: info.st_uid) }
            guard info.st_mode & 0o077 == 0 else {
                throw .unsafePermissions(
                    path: path, mode: info.st_mode, expected: info.st_mode & S_IFMT == S_IFDIR ? 0o700 : 0o600)
            }
        case .stickyOrOwnerWritable:
            let isStickyDirectory = info.st_mode & S_IFMT == S_IFDIR && info.st_mode & S_ISVTX != 0
            if !isStickyDirectory || (info.st_uid != me && info.st_uid != 0) {
                try FileTrust.ownerWritable.check(info, path: path)
            }
        case .ownerWritable:
            guard info.st_uid == me || info.st_uid == 0 else { throw .foreignOwner(path: path, owner: info.st_uid) }
            guard info.st_mode & 0o022 == 0 else {
                throw .unsafePermissions(path: path, mode: info.st_mode, expected: info.st_mode & 0o755)
            }
        }
    }

    /// Checks the open file `descriptor` (of `path`): the file checked is the one being read.
    public func check(descriptor: Int32, path: String) throws(FileSystemError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .from(errno: errno, path: path, operation: "fstat") }
        try check(info, path: path)
    }

    /// Checks the file `path` names (following links, as the library that opens it will).
    public func check(_ path: String) throws(FileSystemError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .from(errno: errno, path: path, operation: "stat") }
        try check(info, path: path)
    }
}
