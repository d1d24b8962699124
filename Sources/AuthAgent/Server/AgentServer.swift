import AuthStore
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The token agent: serves the tokens of long-lived `AuthStore`s to local processes of the same user over a Unix
/// socket, in a line-delimited JSON protocol (see `AgentRequest`).
///
/// Threads: one accepts, one serves each connection (up to `Limits.maximumConnections`; threads are reused),
/// all outside Swift's cooperative pool; the stores' async work runs on the pool as usual. Every connection's peer uid is checked.
/// Nothing is printed: what happens goes to `log`, without tokens.
public final class AgentServer: Sendable {
    public struct Limits: Sendable {
        /// Each request line must be complete within this time of the previous one (or of the connection), and
        /// every reply must be taken by the client within it. Idle connections close after it too.
        public var readTimeout: Duration = .seconds(5)
        /// A longer line is answered `badRequest` and the connection closed.
        public var maximumLineLength = 64 * 1024
        /// Further connections are closed at once (and logged) until one ends.
        public var maximumConnections = 256
        /// How long `stop` waits for the replies in flight.
        public var shutdownGrace: Duration = .seconds(2)

        public init() {}
    }

    public struct Options: Sendable {
        /// The agent's version, for the `version` request.
        public var version: String
        public var limits: Limits
        /// Other users served tokens, each of the profiles listed for it only, such as a container's user reaching
        /// the socket through a bind mount; none by default. Such a user may ask for those profiles' tokens and a
        /// ping; status, lock, unlock, the version and any other profile, configured or not, are answered "not
        /// served", and failures are told without detail (no path, no other profile). The sockets become 0666 so
        /// that a bind mount can reach them; their directories stay 0700, and every connection's uid (SO_PEERCRED)
        /// and profile are checked.
        public var alsoServed: [UInt32: Set<String>]
        /// Further sockets, each serving its profiles' tokens and AWS credentials only (a same-uid container's
        /// share of the agent), to the agent's user and to the users of `alsoServed` (what both allow); anything
        /// else there is "not served". Bound by the agent, as the main socket is, even when that one was passed.
        public var restrictedSockets: [RestrictedSocket]

        public init(
            version: String, limits: Limits = Limits(), alsoServed: [UInt32: Set<String>] = [:],
            restrictedSockets: [RestrictedSocket] = []
        ) {
            self.version = version
            self.limits = limits
            self.alsoServed = alsoServed
            self.restrictedSockets = restrictedSockets
        }
    }

    /// A socket that serves the tokens of `profiles` and nothing else.
    public struct RestrictedSocket: Sendable, Equatable {
        public let path: String
        public let profiles: Set<String>

        public init(path: String, profiles: Set<String>) {
            self.path = path
            self.profiles = profiles
        }
    }

    /// A socket the agent listens on, and what it serves.
    private struct Listener: Sendable {
        let socket: ListeningSocket
        let serves: ServedProfiles
    }

    /// The longest socket path the kernel takes (sockaddr_un), in bytes.
    public static let maximumSocketPathLength = UnixSocket.maximumPathLength

    /// The main socket's path.
    public let socketPath: String
    /// The main socket first, then the restricted ones.
    private let listeners: [Listener]
    private let service: AgentService
    private let connections: ConnectionSet
    private let workers = ConnectionWorkers(idleLifetime: .seconds(10))
    private let limits: Limits
    private let alsoServed: [UInt32: Set<String>]
    private let log: @Sendable (String) -> Void
    /// Written once by `stop` to wake the accept loop.
    private let wakePipe: (read: Int32, write: Int32)
    private let acceptLoopEnded = Completion()
    private let stopped = Completion()
    private let stopRequested = Locked(false)

    /// Makes the socket's directory (0700) if missing, replaces a stale socket, binds (0600) and starts serving.
    /// Fails when another agent is alive on the path or the directory is open to others.
    public static func start(
        socketPath: String, profiles: any AgentProfileProvider, options: Options,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(AgentServerError) -> AgentServer {
        try start(
            on: try ListeningSocket.open(path: socketPath, backlog: 128, mode: socketMode(options)), profiles: profiles,
            options: options, log: log)
    }

    /// 0600, or 0666 when another user is served through a bind mount (the directory stays 0700).
    private static func socketMode(_ options: Options) -> mode_t {
        options.alsoServed.isEmpty ? 0o600 : 0o666
    }

    /// Serves on the socket a service manager passed (systemd socket activation); `stop` leaves its file in place.
    public static func start(
        activatedSocket: ActivatedSocket, profiles: any AgentProfileProvider, options: Options,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(AgentServerError) -> AgentServer {
        try start(on: ListeningSocket.adopt(activatedSocket), profiles: profiles, options: options, log: log)
    }

    private static func start(
        on main: ListeningSocket, profiles: any AgentProfileProvider, options: Options,
        log: @escaping @Sendable (String) -> Void
    ) throws(AgentServerError) -> AgentServer {
        var listeners = [Listener(socket: main, serves: .all)]
        let stopAll = { for listener in listeners { listener.socket.stopListening() } }
        do {
            for restricted in options.restrictedSockets {
                let socket = try ListeningSocket.open(path: restricted.path, backlog: 128, mode: socketMode(options))
                listeners.append(Listener(socket: socket, serves: .only(restricted.profiles)))
            }
        } catch {
            stopAll()
            throw error
        }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let failure = errno
            stopAll()
            throw .system(operation: "create a pipe for", path: main.path, errno: failure)
        }
        for descriptor in pipeEnds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let server = AgentServer(
            listeners: listeners, wakePipe: (pipeEnds[0], pipeEnds[1]), profiles: profiles,
            options: options, log: log)
        guard DetachedThread.start(stackSize: ConnectionWorkers.stackSize, { server.acceptLoop() }) == 0 else {
            server.closeWakePipe()
            stopAll()
            throw .system(operation: "start a thread for", path: main.path, errno: EAGAIN)
        }
        log("agent listening on \(main.path)")
        for restricted in options.restrictedSockets {
            log(
                "agent listening on \(restricted.path) for profile(s) \(restricted.profiles.sorted().joined(separator: ", ")) only"
            )
        }
        return server
    }

    private init(
        listeners: [Listener], wakePipe: (read: Int32, write: Int32), profiles: any AgentProfileProvider,
        options: Options, log: @escaping @Sendable (String) -> Void
    ) {
        socketPath = listeners[0].socket.path
        self.listeners = listeners
        self.wakePipe = wakePipe
        service = AgentService(provider: profiles, version: options.version, log: log)
        connections = ConnectionSet(capacity: options.limits.maximumConnections)
        limits = options.limits
        alsoServed = options.alsoServed
        self.log = log
    }

    /// Stops accepting and removes the socket file at once (clients then take their direct path; a socket passed by
    /// a service manager stays, and new connections wait for it to start the agent again), lets the connections
    /// send the replies they owe (up to `shutdownGrace`), then returns. Safe to call more than once.
    public func stop() async {
        let isFirst = stopRequested.withLock { requested in
            defer { requested = true }
            return !requested
        }
        guard isFirst else { return await stopped.wait() }
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
        await acceptLoopEnded.wait()
        for listener in listeners { listener.socket.stopListening() }
        connections.stopAll()
        await connections.drained.wait(timeout: limits.shutdownGrace)
        if !connections.drained.isDone {
            log("stopped with \(connections.count) connection(s) still waiting for a store")
        }
        service.registry.forgetAll()
        workers.shutDown()
        closeWakePipe()
        log("agent stopped")
        stopped.finish()
    }

    /// Returns once `stop` has finished.
    public func waitUntilStopped() async {
        await stopped.wait()
    }

    private func closeWakePipe() {
        close(wakePipe.read)
        close(wakePipe.write)
    }

    private func acceptLoop() {
        defer { acceptLoopEnded.finish() }
        let ownUid = geteuid()
        // The wake pipe last, after one entry per listener.
        var watched =
            listeners.map { pollfd(fd: $0.socket.descriptor, events: Int16(POLLIN), revents: 0) }
            + [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            do {
                _ = try SystemCall.waiting("poll", until: nil) { poll(&watched, nfds_t(watched.count), $0) }
            } catch {
                return log("accept loop failed: \(error)")
            }
            if watched[listeners.count].revents != 0 { return }
            for (listener, entry) in zip(listeners, watched) where entry.revents != 0 {
                accept(on: listener, ownUid: ownUid)
            }
        }
    }

    /// Takes one connection from `listener` and hands it to a worker, or closes it (and says why in the log).
    private func accept(on listener: Listener, ownUid: UInt32) {
        let descriptor: Int32
        do {
            guard let accepted = try StreamListener.accept(on: listener.socket.descriptor, nonBlocking: false) else {
                return
            }
            descriptor = accepted
        } catch {
            // Out of descriptors: say so, and give the connections in flight a moment to end.
            log("cannot accept a connection: \(error)")
            usleep(10_000)
            return
        }
        let peer = UnixSocket.peerCredentials(descriptor)
        guard let peer, let served = listener.serves.forPeer(uid: peer.uid, ownUid: ownUid, alsoServed: alsoServed)
        else {
            let who = peer.map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
            let uids = ([ownUid] + alsoServed.keys.sorted()).map { "\($0)" }.joined(separator: ", ")
            log("refused a connection from \(who): this agent serves uid\(alsoServed.isEmpty ? "" : "s") \(uids) only")
            close(descriptor)
            return
        }
        guard connections.admit(descriptor) else {
            log("refused a connection: \(limits.maximumConnections) connections are open already")
            close(descriptor)
            return
        }
        let connection = AgentConnection(
            descriptor: descriptor, served: served, service: service, limits: limits, log: log)
        let connections = self.connections
        guard
            workers.run({
                connection.run()
                connections.close(descriptor)
            })
        else {
            log("refused a connection: no thread available")
            return connections.close(descriptor)
        }
    }
}
