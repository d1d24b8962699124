internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// One accepted connection on the serving thread: its request head so far, and the instant it must be done by.
///
/// The deadline counts from the accept, not from the last byte, so a client that sends one byte a second is cut
/// off at the deadline like one that sends nothing.
struct ClientConnection {
    enum Event {
        case incomplete
        /// The head is complete; nil when it is malformed.
        case complete(RequestHead?)
        case tooLarge
        case closed
    }

    let descriptor: Int32
    private(set) var deadline: ContinuousClock.Instant
    /// Set once a response is sent: the write side is shut and what still arrives is read and dropped until the
    /// peer closes (closing with unread bytes would reset the connection and could lose the response).
    private(set) var isClosing = false
    private var head: [UInt8] = []
    private var scanned = 0

    init(descriptor: Int32, deadline: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.deadline = deadline
    }

    /// Reads what has arrived and reports whether the request head is now complete.
    mutating func receive(headerLimit: Int) -> Event {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts("recv") {
                    recv(descriptor, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                }
            } catch {
                return error.code == EAGAIN || error.code == EWOULDBLOCK ? .incomplete : .closed
            }
            if count == 0 { return .closed }
            if isClosing { continue }
            head += chunk[..<count]
            if let end = headEnd() {
                return end > headerLimit ? .tooLarge : .complete(RequestHead(head: head[..<end]))
            }
            if head.count > headerLimit { return .tooLarge }
        }
    }

    mutating func respond(
        _ status: HTTPResponse.Status, _ body: HTTPResponse.Body, lingerUntil linger: ContinuousClock.Instant
    ) {
        HTTPResponse.send(status, body, to: descriptor)
        shutdown(descriptor, Int32(SHUT_WR))
        isClosing = true
        deadline = linger
        head = []
    }

    func close() {
        _ = Glibc.close(descriptor)
    }

    /// The index just past the blank line that ends the head. Scans only bytes not scanned before.
    private mutating func headEnd() -> Int? {
        let terminator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        var index = max(0, scanned - 3)
        while index + 4 <= head.count {
            if head[index..<index + 4].elementsEqual(terminator) { return index + 4 }
            index += 1
        }
        scanned = head.count
        return nil
    }
}
