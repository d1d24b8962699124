internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The sign-in listener's router: strays get 400 or 404, the redirect of this sign-in ends the wait with its code
/// (or the server's error), and the browser's connection is then held for the caller's page.
final class CallbackRouter: RequestRouter {
    /// Weak: once serving ends only the caller keeps the core, so releasing the callback it was given sends the
    /// default page at once.
    private weak var core: ListenerCore?
    private let wakeup: Wakeup
    private let matcher: CallbackMatcher
    private let origin: String
    private let answerTimeout: Duration
    private var held: HeldConnection?

    init(core: ListenerCore, matcher: CallbackMatcher, origin: String, answerTimeout: Duration) {
        self.core = core
        self.wakeup = core.wakeup
        self.matcher = matcher
        self.origin = origin
        self.answerTimeout = answerTimeout
    }

    func route(_ request: RequestHead, on descriptor: Int32) -> Route {
        // The server holds the core while it serves.
        guard let core else { return .respond(.serviceUnavailable, .page(.unanswered)) }
        switch matcher.judge(request.line) {
        case .notFound:
            return .respond(.notFound, .page(.notFound))
        case .badRequest(let reason):
            return .respond(.badRequest, .page(.badRequest(reason)))
        case .denied(let error, let description):
            core.finish(.failure(.authorizationDenied(error: error, description: description)))
            return .respond(.ok, .page(.denied))
        case .authorized(let code):
            let connection = HeldConnection(descriptor)
            let callback = AuthorizationCallback(
                code: code, url: origin + request.line.target, urlWithoutQuery: origin + matcher.path,
                connection: connection, wakeup: wakeup)
            // Lost only to a cancel() in the same instant; the callback then sends the default page as it goes.
            if core.finish(.success(callback)) { held = connection }
            return .takenOver
        }
    }

    /// Keeps the browser's connection until the caller answers it, or sends the default page at the time limit.
    func servingEnded() {
        guard let held else { return }
        self.held = nil
        let answerDeadline = ContinuousClock.now + answerTimeout
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
