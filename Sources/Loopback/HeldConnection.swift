internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The browser's connection that carried the code, kept open until one page is sent on it.
final class HeldConnection: Sendable {
    private let descriptor: Locked<Int32?>

    init(_ descriptor: Int32) {
        self.descriptor = Locked(descriptor)
    }

    var isAnswered: Bool { descriptor.withLock { $0 == nil } }

    /// Sends `page` and closes the connection. False when a page was already sent, or the browser has gone.
    @discardableResult
    func answer(_ page: CallbackPage) -> Bool {
        guard
            let descriptor = descriptor.withLock({ held in
                defer { held = nil }
                return held
            })
        else { return false }
        let delivered = HTTPResponse.send(.ok, page, to: descriptor)
        shutdown(descriptor, Int32(SHUT_WR))
        close(descriptor)
        return delivered
    }
}
