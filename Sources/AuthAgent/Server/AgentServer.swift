import AuthStore
#if canImport(Glibc)
internal import Glibc
#endif
internal import SystemPlumbing

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
        /// the socket through a bind mount; none by default. Such a user may ask for those profiles' tokens, the
        /// version and a ping; any other profile, configured or not, is answered "not served", and failures are told
        /// without detail (no path, no other profile). The socket becomes 0666 so that a bind mount can reach it; its
        /// directory stays 0700, and every connection's uid (SO_PEERCRED) and profile are checked.
        public var alsoServed: [UInt32: Set<String>]

        public init(version: String, limits: Limits = Limits(), alsoServed: [UInt32: Set<String>] = [:]) {
            self.version = version
            self.limits = limits
            self.alsoServed = alsoServed
        }
    }

    public let socketPath: String
    private let listening: ListeningSocket
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
    public static func start(socketPath: String, profiles: any AgentProfileProvider, options: Options,
                             log: @escaping @Sendable (String) -> Void = { _ in }) throws(AgentServerError) -> AgentServer {
        let mode: mode_t = options.alsoServed.isEmpty ? 0o600 : 0o666
        return try start(on: try ListeningSocket.open(path: socketPath, backlog: 128, mode: mode), profiles: profiles,
                         options: options, log: log)
    }

    /// Serves on the socket a service manager passed (systemd socket activation); `stop` leaves its file in place.
    public static func start(activatedSocket: ActivatedSocket, profiles: any AgentProfileProvider, options: Options,
                             log: @escaping @Sendable (String) -> Void = { _ in }) throws(AgentServerError) -> AgentServer {
        try start(on: ListeningSocket.adopt(activatedSocket), profiles: profiles, options: options, log: log)
    }

    private static func start(on listening: ListeningSocket, profiles: any AgentProfileProvider, options: Options,
                              log: @escaping @Sendable (String) -> Void) throws(AgentServerError) -> AgentServer {
        let socketPath = listening.path
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let failure = errno
            listening.stopListening()
            throw .system(operation: "create a pipe for", path: socketPath, errno: failure)
        }
        for descriptor in pipeEnds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let server = AgentServer(listening: listening, wakePipe: (pipeEnds[0], pipeEnds[1]), profiles: profiles,
                                 options: options, log: log)
        guard DetachedThread.start(stackSize: ConnectionWorkers.stackSize, { server.acceptLoop() }) == 0 else {
            server.closeWakePipe()
            listening.stopListening()
            throw .system(operation: "start a thread for", path: socketPath, errno: EAGAIN)
        }
        log("agent listening on \(socketPath)")
        return server
    }

    private init(listening: ListeningSocket, wakePipe: (read: Int32, write: Int32), profiles: any AgentProfileProvider,
                 options: Options, log: @escaping @Sendable (String) -> Void) {
        socketPath = listening.path
        self.listening = listening
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
        listening.stopListening()
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
        var watched = [pollfd(fd: listening.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            do {
                _ = try SystemCall.waiting("poll", until: nil) { poll(&watched, 2, $0) }
            } catch {
                return log("accept loop failed: \(error)")
            }
            if watched[1].revents != 0 { return }
            guard watched[0].revents != 0 else { continue }
            let descriptor: Int32
            do {
                guard let accepted = try StreamListener.accept(on: listening.descriptor, nonBlocking: false) else { continue }
                descriptor = accepted
            } catch {
                // Out of descriptors: say so, and give the connections in flight a moment to end.
                log("cannot accept a connection: \(error)")
                usleep(10_000)
                continue
            }
            let peer = UnixSocket.peerCredentials(descriptor)
            guard let peer, let served = served(uid: peer.uid, ownUid: ownUid) else {
                let who = peer.map { "uid \($0.uid) (pid \($0.pid))" } ?? "an unknown peer"
                let uids = ([ownUid] + alsoServed.keys.sorted()).map { "\($0)" }.joined(separator: ", ")
                log("refused a connection from \(who): this agent serves uid\(alsoServed.isEmpty ? "" : "s") \(uids) only")
                close(descriptor)
                continue
            }
            guard connections.admit(descriptor) else {
                log("refused a connection: \(limits.maximumConnections) connections are open already")
                close(descriptor)
                continue
            }
            let connection = AgentConnection(descriptor: descriptor, served: served, service: service,
                                             limits: limits, log: log)
            let connections = self.connections
            guard workers.run({
                connection.run()
                connections.close(descriptor)
            }) else {
                log("refused a connection: no thread available")
                connections.close(descriptor)
                continue
            }
        }
    }

    /// What a peer of `uid` may ask; nil for a user the agent does not serve.
    private func served(uid: UInt32, ownUid: UInt32) -> ServedProfiles? {
        if uid == ownUid { return .all }
        return alsoServed[uid].map(ServedProfiles.only)
    }
}
