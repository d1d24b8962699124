import SecureFiles
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The agent's end of its socket. One the agent binds itself has a private directory, a lock file held for the
/// agent's life (so two agents starting at once cannot both take the path), and the socket file, born 0600; one
/// passed by a service manager is only listened on: its file and directory are the manager's.
struct ListeningSocket: Sendable {
    let descriptor: Int32
    let path: String
    /// Set when this process bound the socket: the lock, and the file's identity (removed only if still ours).
    private let bound: (lockDescriptor: Int32, device: UInt64, inode: UInt64)?

    /// Makes the directory (0700) if missing, replaces a stale socket, binds and listens.
    /// - Parameters:
    ///   - mode: the socket file's; 0600 unless another user is served through a bind mount.
    ///   - afterBinding: runs between bind and the mode being set: where a test plays the process that swaps the
    ///     socket for a link.
    static func open(
        path: String, backlog: Int32, mode: mode_t = 0o600, afterBinding: (String) -> Void = { _ in }
    ) throws(AgentServerError) -> ListeningSocket {
        guard !path.isEmpty, path.utf8.count <= UnixSocket.maximumPathLength else { throw .pathTooLong(path: path) }
        let directory = Self.directory(of: path)
        try makePrivateDirectory(directory)
        let lockDescriptor = try takeLock(path + ".lock")
        do {
            try removeStaleSocket(at: path)
            let (descriptor, device, inode) = try bind(path, backlog: backlog, mode: mode, afterBinding: afterBinding)
            return ListeningSocket(descriptor: descriptor, path: path, bound: (lockDescriptor, device, inode))
        } catch {
            close(lockDescriptor)
            throw error
        }
    }

    /// Listens on the socket the service manager passed.
    static func adopt(_ activated: ActivatedSocket) -> ListeningSocket {
        ListeningSocket(descriptor: ActivatedSocket.descriptor, path: activated.path, bound: nil)
    }

    /// Closes the listener. A socket bound here is removed (if the file is still the one bound here) and its lock
    /// let go; a passed one stays, for the manager to start the agent again on the next connection.
    func stopListening() {
        close(descriptor)
        guard let bound else { return }
        var status = stat()
        if lstat(path, &status) == 0, UInt64(status.st_dev) == bound.device, UInt64(status.st_ino) == bound.inode {
            unlink(path)
        }
        close(bound.lockDescriptor)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func makePrivateDirectory(_ directory: String) throws(AgentServerError) {
        if mkdir(directory, 0o700) == 0 {
            // The umask may have taken more than group and other bits; the owner needs all three.
            chmod(directory, 0o700)
        } else if errno != EEXIST {
            throw .system(operation: "create the directory", path: directory, errno: errno)
        }
        do {
            try PrivateDirectory.checkPrivate(directory, followingLinks: false)
        } catch {
            switch error {
            case .notADirectory:
                throw .unsafeDirectory(path: directory, reason: "is not a directory (or is a symbolic link)")
            case .foreignOwner(_, let owner):
                throw .unsafeDirectory(
                    path: directory, reason: "belongs to uid \(owner), not to you (uid \(geteuid()))")
            case .unsafePermissions(_, let mode, _):
                throw .unsafeDirectory(
                    path: directory, reason: "is open to other users (mode \(String(mode & 0o777, radix: 8)))")
            case .notFound: throw .system(operation: "inspect the directory", path: directory, errno: ENOENT)
            case .permissionDenied: throw .system(operation: "inspect the directory", path: directory, errno: EACCES)
            case .io(_, _, let code): throw .system(operation: "inspect the directory", path: directory, errno: code)
            }
        }
    }

    private static func takeLock(_ lockPath: String) throws(AgentServerError) -> Int32 {
        let descriptor = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .system(operation: "open the lock file", path: lockPath, errno: errno) }
        let taken: Bool
        do {
            taken = try SystemCall.lock(descriptor, LOCK_EX, waiting: false)
        } catch {
            close(descriptor)
            throw .system(operation: "lock", path: lockPath, errno: error.code)
        }
        guard taken else {
            close(descriptor)
            throw .alreadyRunning(socketPath: String(lockPath.dropLast(".lock".count)))
        }
        return descriptor
    }

    /// A socket nobody answers on is left over from an agent that died; a live one is never touched.
    private static func removeStaleSocket(at path: String) throws(AgentServerError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        switch UnixSocket.connect(to: path, timeout: .seconds(1)) {
        case .connected(let descriptor):
            close(descriptor)
            throw .alreadyRunning(socketPath: path)
        case .timedOut:
            throw .alreadyRunning(socketPath: path)
        case .nobodyListening, .failed:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .system(operation: "remove the stale socket", path: path, errno: errno)
            }
        }
    }

    private static func bind(
        _ path: String, backlog: Int32, mode: mode_t, afterBinding: (String) -> Void
    ) throws(AgentServerError) -> (
        Int32, UInt64, UInt64
    ) {
        // Accepted sockets do not inherit the listener's non-blocking flag (Linux), so connections stay blocking.
        let descriptor: Int32
        do {
            // Linux gives the socket file the mode of the socket's inode less the umask: set before bind, the file
            // is born no more open than 0600, without touching the process-wide umask (other threads create files).
            descriptor = try StreamListener.open(
                family: AF_UNIX, backlog: backlog, prepare: { fchmod($0, 0o600) },
                bind: { descriptor in
                    UnixSocket.withAddress(path) { Glibc.bind(descriptor, $0, $1) } ?? -1
                })
        } catch {
            if error.call == "listen" { unlink(path) }
            throw .system(operation: error.call == "listen" ? "listen on" : error.call, path: path, errno: error.code)
        }
        afterBinding(path)
        // Exactly `mode` whatever the umask took; nobody could connect before listen anyway. Never through a link:
        // whoever can write the directory (a container given it) could swap the socket for a link to a file of ours
        // (fchmodat without following fails on a link), and what is there must be a socket before and after.
        var status = stat()
        let isSocket = { lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK }
        guard isSocket(), fchmodat(AT_FDCWD, path, mode, AT_SYMLINK_NOFOLLOW) == 0, isSocket() else {
            let failure = errno
            close(descriptor)
            // What was swapped in is not ours to remove.
            guard isSocket() else { throw .notASocket(path: path) }
            unlink(path)
            throw .system(operation: "secure", path: path, errno: failure)
        }
        return (descriptor, UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
