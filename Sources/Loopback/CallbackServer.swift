internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The poll loop on the serving thread: accepts connections, reads request heads under their deadlines, answers
/// strays with 400 or 404, and ends the wait on the redirect of this sign-in. Several connections are served at
/// once; nothing here blocks except `poll`.
///
/// Created by the caller and then used only by the serving thread.
final class CallbackServer {
    private var core: ListenerCore?
    private let wakeup: Wakeup
    private let matcher: CallbackMatcher
    private let origin: String
    private let limits: LoopbackListener.Limits
    private let deadline: ContinuousClock.Instant
    private var connections: [ClientConnection] = []

    /// How long a refused client is given to close after its response before the connection is dropped.
    private static let linger = Duration.seconds(1)

    init(
        core: ListenerCore, matcher: CallbackMatcher, origin: String, limits: LoopbackListener.Limits,
        deadline: ContinuousClock.Instant
    ) {
        self.core = core
        self.wakeup = core.wakeup
        self.matcher = matcher
        self.origin = origin
        self.limits = limits
        self.deadline = deadline
    }

    func run() {
        guard let held = serveUntilTheWaitEnds() else { return }
        awaitAnswer(held)
    }

    /// Serves until the wait ends, then closes the listening sockets and lets go of the core (so the caller owns
    /// what it was given: releasing the callback sends the default page). The held browser connection when the
    /// wait ended with a code.
    private func serveUntilTheWaitEnds() -> HeldConnection? {
        guard let core else { return nil }
        defer {
            connections.forEach { $0.close() }
            connections = []
            core.closeListeners()
            self.core = nil
        }
        return serve(core)
    }

    private func serve(_ core: ListenerCore) -> HeldConnection? {
        while true {
            let now = ContinuousClock.now
            if now >= deadline { core.finish(.failure(.timedOut)) }
            if core.isFinished { return nil }
            expireConnections(at: now)

            var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
            descriptors += core.listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            descriptors += connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let nextDeadline = connections.map(\.deadline).reduce(deadline, min)
            let ready = poll(&descriptors, nfds_t(descriptors.count), nextDeadline.pollTimeout(from: now))
            guard ready > 0 else { continue }

            if descriptors[0].revents != 0 { wakeup.drain() }
            if core.isFinished { return nil }
            let listenerCount = core.listeners.count
            if descriptors[1...listenerCount].contains(where: { $0.revents != 0 }) { acceptConnections(core) }
            let readable = Set(descriptors[(1 + listenerCount)...].filter { $0.revents != 0 }.map(\.fd))
            if let held = handleReadable(readable, core) { return held }
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
                connections[index].respond(.requestTimeout, .requestTimeout, lingerUntil: now + Self.linger)
            }
        }
    }

    private func handleReadable(_ readable: Set<Int32>, _ core: ListenerCore) -> HeldConnection? {
        for index in connections.indices.reversed() where readable.contains(connections[index].descriptor) {
            let linger = ContinuousClock.now + Self.linger
            switch connections[index].receive(headerLimit: limits.maximumHeaderBytes) {
            case .incomplete:
                break
            case .closed:
                connections.remove(at: index).close()
            case .tooLarge:
                connections[index].respond(.headersTooLarge, .headersTooLarge, lingerUntil: linger)
            case .complete(nil):
                connections[index].respond(.badRequest, .badRequest(.malformedRequest), lingerUntil: linger)
            case .complete(let request?):
                switch matcher.judge(request) {
                case .notFound:
                    connections[index].respond(.notFound, .notFound, lingerUntil: linger)
                case .badRequest(let reason):
                    connections[index].respond(.badRequest, .badRequest(reason), lingerUntil: linger)
                case .denied(let error, let description):
                    connections[index].respond(.ok, .denied, lingerUntil: linger)
                    core.finish(.failure(.authorizationDenied(error: error, description: description)))
                    return nil
                case .authorized(let code):
                    return hold(connections.remove(at: index), code: code, target: request.target, core)
                }
            }
        }
        return nil
    }

    private func hold(_ connection: ClientConnection, code: String, target: String, _ core: ListenerCore)
        -> HeldConnection?
    {
        let held = HeldConnection(connection.descriptor)
        let callback = AuthorizationCallback(
            code: code, url: origin + target, urlWithoutQuery: origin + matcher.path, connection: held, wakeup: wakeup)
        // Lost only to a cancel() in the same instant; the callback then sends the default page as it goes.
        return core.finish(.success(callback)) ? held : nil
    }

    /// Keeps the browser's connection until the caller answers it, or sends the default page at the time limit.
    private func awaitAnswer(_ held: HeldConnection) {
        let answerDeadline = ContinuousClock.now + limits.answerTimeout
        while !held.isAnswered {
            let now = ContinuousClock.now
            guard now < answerDeadline else {
                held.answer(.unanswered)
                return
            }
            var descriptor = pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, answerDeadline.pollTimeout(from: now)) > 0 { wakeup.drain() }
        }
    }
}
