internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The socket calls the server and the client share, errno turned into values.
enum UnixSocket {
    /// `sun_path` holds 108 bytes, the terminating zero included.
    static let maximumPathLength = 107

    /// Calls `body` with the address of `path`; nil when the path does not fit in `sun_path`.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathLength else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A new stream socket, close-on-exec; nil with errno set when the system refuses.
    static func make(nonBlocking: Bool = false) -> Int32? {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let descriptor = socket(AF_UNIX, type, 0)
        return descriptor >= 0 ? descriptor : nil
    }

    enum ConnectOutcome {
        case connected(Int32)
        /// No socket file, or nobody listening on it.
        case nobodyListening
        case timedOut
        case failed(errno: Int32)
    }

    /// Connects to `path` within `timeout`. A full backlog (EAGAIN) is retried until the deadline.
    static func connect(to path: String, timeout: Duration) -> ConnectOutcome {
        let deadline = ContinuousClock.now + timeout
        guard let descriptor = make(nonBlocking: true) else { return .failed(errno: errno) }
        while true {
            guard
                let status = withAddress(
                    path,
                    { address, length in
                        Result { () throws(SystemCallError) in
                            try SystemCall.retryingInterrupts("connect") { Glibc.connect(descriptor, address, length) }
                        }
                    })
            else {
                close(descriptor)
                return .failed(errno: ENAMETOOLONG)
            }
            guard case .failure(let error) = status else { return .connected(descriptor) }
            let failure = error.code
            switch failure {
            case EAGAIN where ContinuousClock.now < deadline:
                usleep(1_000)
                continue
            case EAGAIN:
                close(descriptor)
                return .timedOut
            case ENOENT, ECONNREFUSED:
                close(descriptor)
                return .nobodyListening
            default:
                close(descriptor)
                return .failed(errno: failure)
            }
        }
    }

    /// The process at the other end, as the kernel recorded it at connect time (SO_PEERCRED).
    static func peerCredentials(_ descriptor: Int32) -> (pid: Int32, uid: uid_t)? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's module does not export.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout.size(ofValue: credentials)
        else { return nil }
        return (credentials.0, credentials.1)
    }

    /// Bounds each blocking `recv` (SO_RCVTIMEO) or `send` (SO_SNDTIMEO).
    static func setTimeout(_ descriptor: Int32, option: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = max(duration, .milliseconds(1)).components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte on a blocking socket (a timeout set with `setTimeout` bounds it); false when the peer
    /// is gone or too slow. Never raises SIGPIPE.
    static func sendAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < bytes.count {
            guard
                let count = try? SystemCall.retryingInterrupts(
                    "send",
                    {
                        send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                    }), count > 0
            else { return false }
            sent += count
        }
        return true
    }
}
