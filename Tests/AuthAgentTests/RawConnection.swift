import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client socket driven byte by byte, to misbehave on purpose and to read raw reply lines. One thread reads;
/// another may send at the same time (the 10 MB line), which the socket allows.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32
    private var buffered: [UInt8] = []

    enum Failure: Error {
        case connect(Int32)
        case closed, timedOut
    }

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let descriptor = self.descriptor
        guard withSocketAddress(path, { connect(descriptor, $0, $1) }) == 0 else {
            let failure = errno
            close(descriptor)
            throw Failure.connect(failure)
        }
    }

    deinit { close(descriptor) }

    /// False once the agent has closed its end.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// The next line (without its newline), waiting at most `timeout`.
    func readLine(timeout: TimeInterval = 5) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeFirst(newline + 1)
                return line
            }
            guard try receive(until: deadline) else { throw Failure.closed }
        }
    }

    /// True when the agent closes the connection within `timeout` (whatever it sent before).
    func closesWithin(_ timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                guard try receive(until: deadline) else { return true }
            } catch {
                return false
            }
        }
    }

    /// False at the end of input (or a reset).
    private func receive(until deadline: Date) throws -> Bool {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw Failure.timedOut }
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, Int32(remaining * 1000) + 1) > 0 else { throw Failure.timedOut }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffered.append(contentsOf: chunk[0..<count])
        return true
    }
}

/// A reply line as a dictionary, by Foundation's own JSON parser (independent of the agent's).
func object(_ line: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
}

func errorCode(_ line: String) throws -> String? {
    (try object(line)["error"] as? [String: Any])?["code"] as? String
}

/// A socket bound at `path` (not listening yet): a stand-in for another program on the agent's path.
func boundSocket(at path: String) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard withSocketAddress(path, { bind(descriptor, $0, $1) }) == 0 else {
        close(descriptor)
        throw RawConnection.Failure.connect(errno)
    }
    return descriptor
}

func withSocketAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
