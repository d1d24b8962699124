internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// What a listener does with each well-formed request: the one part in which the sign-in's callback and the
/// credentials endpoint differ. Called on the serving thread only.
protocol RequestRouter: AnyObject {
    func route(_ request: RequestHead, on descriptor: Int32) -> Route
    /// Called once serving has ended and the listening sockets are closed.
    func servingEnded()
}

enum Route {
    /// The serving thread sends this response; serving goes on.
    case respond(HTTPResponse.Status, HTTPResponse.Body)
    /// The router has taken the connection: it answers and closes it.
    case takenOver
}

/// The poll loop on the serving thread: accepts connections, reads request heads under their deadlines, answers
/// malformed, slow and oversized ones and those for another host itself and hands each well-formed one to its router, until the core finishes
/// (the router, the time-out, or `cancel()`). Several connections are served at once; nothing here blocks except
/// `poll`.
///
/// Created by the caller and then used only by the serving thread.
final class ConnectionServer {
    private var core: ListenerCore?
    private let wakeup: Wakeup
    private let router: any RequestRouter
    private let expectedHost: ExpectedHost
    private let limits: LoopbackListener.Limits
    /// When the wait ends on its own; nil to serve until cancelled.
    private let deadline: ContinuousClock.Instant?
    private var connections: [ClientConnection] = []

    /// How long a refused client is given to close after its response before the connection is dropped.
    private static let linger = Duration.seconds(1)

    init(
        core: ListenerCore, router: any RequestRouter, expectedHost: ExpectedHost, limits: LoopbackListener.Limits,
        deadline: ContinuousClock.Instant?
    ) {
        self.core = core
        self.wakeup = core.wakeup
        self.router = router
        self.expectedHost = expectedHost
        self.limits = limits
        self.deadline = deadline
    }

    /// Serves until the wait ends, then closes the listening sockets and lets go of the core (so the caller owns
    /// what it was given), then lets the router finish.
    func run() {
        guard let core else { return }
        serve(core)
        connections.forEach { $0.close() }
        connections = []
        core.closeListeners()
        self.core = nil
        router.servingEnded()
    }

    private func serve(_ core: ListenerCore) {
        while true {
            let now = ContinuousClock.now
            if let deadline, now >= deadline { core.finish(.failure(.timedOut)) }
            if core.isFinished { return }
            expireConnections(at: now)

            var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            descriptors += core.listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            descriptors += connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let nextDeadline = connections.map(\.deadline).reduce(deadline ?? now + .seconds(3600), min)
            let ready = poll(&descriptors, nfds_t(descriptors.count), nextDeadline.pollTimeout(from: now))
            guard ready > 0 else { continue }

            if descriptors[0].revents != 0 { wakeup.drain() }
            if core.isFinished { return }
            let listenerCount = core.listeners.count
            if descriptors[1...listenerCount].contains(where: { $0.revents != 0 }) { acceptConnections(core) }
            let readable = Set(descriptors[(1 + listenerCount)...].filter { $0.revents != 0 }.map(\.fd))
            handleReadable(readable, core)
        }
    }

    /// At the limit, the oldest connection makes room: a newcomer may be the browser, while the oldest has had
    /// the longest to send its request. So idle or slow connections can never lock the callback out.
    private func acceptConnections(_ core: ListenerCore) {
        let readDeadline = ContinuousClock.now + limits.readDeadline
        for descriptor in core.acceptPending() {
            if connections.count >= max(1, limits.maximumConnections) {
                connections.remove(at: connections.firstIndex(where: \.isClosing) ?? 0).close()
            }
            connections.append(ClientConnection(descriptor: descriptor, deadline: readDeadline))
        }
    }

    /// A request still unfinished at its deadline gets 408; a refused client that has not closed is dropped.
    private func expireConnections(at now: ContinuousClock.Instant) {
        for index in connections.indices.reversed() where connections[index].deadline <= now {
            if connections[index].isClosing {
                connections.remove(at: index).close()
            } else {
                connections[index].respond(
                    .requestTimeout, .page(.requestTimeout), lingerUntil: now + Self.linger)
            }
        }
    }

    private func handleReadable(_ readable: Set<Int32>, _ core: ListenerCore) {
        for index in connections.indices.reversed() where readable.contains(connections[index].descriptor) {
            let linger = ContinuousClock.now + Self.linger
            switch connections[index].receive(headerLimit: limits.maximumHeaderBytes) {
            case .incomplete:
                break
            case .closed:
                connections.remove(at: index).close()
            case .tooLarge:
                connections[index].respond(.headersTooLarge, .page(.headersTooLarge), lingerUntil: linger)
            case .complete(nil):
                connections[index].respond(.badRequest, .page(.badRequest(.malformedRequest)), lingerUntil: linger)
            case .complete(let request?):
                // Before the router: a request for another name learns nothing, not even which paths exist.
                if let refusal = expectedHost.refusal(of: request.host) {
                    connections[index].respond(
                        refusal == .missing ? .badRequest : .forbidden, .page(.refused(refusal)), lingerUntil: linger)
                    continue
                }
                switch router.route(request, on: connections[index].descriptor) {
                case .respond(let status, let body):
                    connections[index].respond(status, body, lingerUntil: linger)
                case .takenOver:
                    connections.remove(at: index)
                }
                if core.isFinished { return }
            }
        }
    }
}
