internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The listening socket a service manager opened for the agent and passed on descriptor 3 (systemd socket
/// activation), recognised as `sd_listen_fds(3)` does, without libsystemd: `LISTEN_PID` names this process and
/// `LISTEN_FDS` counts the descriptors passed from 3 on. The manager owns the socket file: the agent never
/// removes it, and a connection made while the agent is stopped waits for the manager to start it again.
public struct ActivatedSocket: Sendable {
    /// `SD_LISTEN_FDS_START`: the first descriptor passed.
    public static let descriptor: Int32 = 3

    /// The path the socket is bound to.
    public let path: String

    /// The socket passed to this process; nil when none was (`LISTEN_PID` unset or another process's,
    /// `LISTEN_FDS` unset or 0). Fails when something was passed that the agent cannot serve on.
    /// - Parameters:
    ///   - listenPID: `$LISTEN_PID`, as the caller read it.
    ///   - listenFDs: `$LISTEN_FDS`. The caller unsets both (and `LISTEN_FDNAMES`) afterwards, as
    ///     `sd_listen_fds(1)` does, so no child takes them for its own.
    public static func take(
        listenPID: String?, listenFDs: String?,
        processID: Int32? = nil
    ) throws(AgentServerError) -> ActivatedSocket? {
        guard let listenPID, Int32(listenPID) == processID ?? getpid(), let listenFDs else { return nil }
        guard let count = Int(listenFDs), count >= 0 else {
            throw .activation(reason: "LISTEN_FDS is '\(listenFDs)', not a count of descriptors")
        }
        guard count > 0 else { return nil }
        guard count == 1 else {
            throw .activation(
                reason: "\(count) sockets were passed; the agent listens on one (one ListenStream= in the socket unit)")
        }
        let path = try checkedPath(of: descriptor)
        // As sd_listen_fds does: the descriptor is not for the agent's children. Non-blocking as the agent's own
        // listener is, so a connection that vanishes between poll and accept cannot stall the accept loop.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return ActivatedSocket(path: path)
    }

    /// The path of a listening Unix stream socket bound to one; anything else is refused.
    private static func checkedPath(of descriptor: Int32) throws(AgentServerError) -> String {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .activation(reason: "descriptor \(descriptor) is not open (\(SystemCallError.text(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw .activation(reason: "descriptor \(descriptor) is not a socket")
        }
        guard integerOption(SO_TYPE, of: descriptor) == Int32(SOCK_STREAM.rawValue) else {
            throw .activation(reason: "descriptor \(descriptor) is not a stream socket (ListenStream=)")
        }
        guard integerOption(SO_ACCEPTCONN, of: descriptor) == 1 else {
            throw .activation(reason: "descriptor \(descriptor) is not listening (Accept=no is needed)")
        }
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, address.sun_family == sa_family_t(AF_UNIX) else {
            throw .activation(reason: "descriptor \(descriptor) is not a Unix socket")
        }
        let path = withUnsafeBytes(of: address.sun_path) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        // An abstract or unnamed socket has no file that clients could find by path.
        guard path.hasPrefix("/") else {
            throw .activation(reason: "descriptor \(descriptor) is not bound to a socket file")
        }
        return path
    }

    private static func integerOption(_ option: Int32, of descriptor: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, option, &value, &length) == 0 ? value : nil
    }
}
