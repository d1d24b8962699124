internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// A client's connection taken out of the serving thread's hands (the browser's that carried the code, a request
/// to the credentials endpoint), kept open until one response is sent on it.
final class HeldConnection: Sendable {
    private let descriptor: Locked<Int32?>

    init(_ descriptor: Int32) {
        self.descriptor = Locked(descriptor)
    }

    var isAnswered: Bool { descriptor.withLock { $0 == nil } }

    /// Sends `page` and closes the connection. False when a page was already sent, or the browser has gone.
    @discardableResult
    func answer(_ page: CallbackPage) -> Bool {
        answer(.ok, .page(page))
    }

    /// Sends the response and closes the connection. False when one was already sent, or the client has gone.
    @discardableResult
    func answer(_ status: HTTPResponse.Status, _ body: HTTPResponse.Body) -> Bool {
        guard
            let descriptor = descriptor.withLock({ held in
                defer { held = nil }
                return held
            })
        else { return false }
        let delivered = HTTPResponse.send(status, body, to: descriptor)
        shutdown(descriptor, Int32(SHUT_WR))
        close(descriptor)
        return delivered
    }
}
