#if canImport(Glibc)
    internal import Glibc
#endif

/// Wakes the serving thread out of `poll` from any thread: a byte written to one end of a socket pair makes the
/// other end readable.
final class Wakeup: Sendable {
    /// The end the serving thread polls.
    let descriptor: Int32
    private let writeEnd: Int32

    init?() {
        var ends: [Int32] = [-1, -1]
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, flags, 0, &ends) == 0 else { return nil }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    func signal() {
        var byte: UInt8 = 1
        // A full buffer means wake-ups are already pending: nothing is lost by dropping this one.
        _ = send(writeEnd, &byte, 1, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while recv(descriptor, &bytes, bytes.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}
