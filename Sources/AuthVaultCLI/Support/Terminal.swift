import AuthVaultApp
import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The controlling terminal: whether there is one, and reading a secret from it without echo.
///
/// Secrets are read from `/dev/tty`, not standard input, so a prompt still works when stdin is a pipe, and a
/// script that pipes data in is never mistaken for a person.
struct Terminal: SecretPrompter {
    /// A helper's sign-in: the person is at /dev/tty, whatever the standard streams are (the tool's protocol).
    let atControllingTerminal: Bool

    init(atControllingTerminal: Bool = false) {
        self.atControllingTerminal = atControllingTerminal
    }

    var isInteractive: Bool { atControllingTerminal ? canAskForSecret : isatty(0) == 1 && isatty(2) == 1 }

    /// A controlling terminal opens, whatever standard input is.
    var canAskForSecret: Bool { withTerminal { _ in true } ?? false }

    func readSecret(prompt: String) -> SecretBytes? {
        withTerminal { descriptor in
            write(descriptor, prompt)
            var saved = termios()
            let canHide = tcgetattr(descriptor, &saved) == 0
            if canHide {
                var quiet = saved
                quiet.c_lflag &= ~tcflag_t(ECHO)
                quiet.c_lflag |= tcflag_t(ECHONL)
                EchoGuard.hide(descriptor: descriptor, saved: saved, quiet: quiet)
            }
            defer { if canHide { EchoGuard.restore() } }
            return LineBuffer.readLine(from: descriptor).map { bytes in
                defer { bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
                return SecretBytes(bytes.buffer[0..<bytes.count])
            }
        }
    }

    func readLine(prompt: String) -> String? {
        withTerminal { descriptor in
            write(descriptor, prompt)
            return LineBuffer.readLine(from: descriptor).map {
                String(decoding: $0.buffer[0..<$0.count], as: UTF8.self)
            }
        }
    }

    private func withTerminal<T>(_ body: (Int32) -> T?) -> T? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return body(descriptor)
    }

    /// Every byte, however many signals or short writes come in between.
    private func write(_ descriptor: Int32, _ text: String) {
        FileDescriptorOutput(descriptor: descriptor).write(text)
    }
}

/// A growable byte buffer that is zeroed before it is released or grown.
final class LineBuffer {
    /// One line of `descriptor` without its newline (CRs dropped), read a byte at a time so that nothing after
    /// the newline is consumed; `nil` on end of input before any byte.
    static func readLine(from descriptor: Int32) -> LineBuffer? {
        let line = LineBuffer()
        var byte: UInt8 = 0
        while true {
            let count = (try? SystemCall.retryingInterrupts("read") { Glibc.read(descriptor, &byte, 1) }) ?? -1
            if count <= 0 { return line.count > 0 ? line : nil }
            if byte == UInt8(ascii: "\n") { return line }
            if byte != UInt8(ascii: "\r") { line.append(byte) }
        }
    }

    private(set) var buffer = [UInt8](repeating: 0, count: 256)
    private(set) var count = 0

    func append(_ byte: UInt8) {
        if count == buffer.count {
            var larger = [UInt8](repeating: 0, count: buffer.count * 2)
            larger.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: buffer, count: count) }
            withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
            buffer = larger
        }
        buffer[count] = byte
        count += 1
    }

    func withUnsafeMutableBytes(_ body: (UnsafeMutableRawBufferPointer) -> Void) {
        buffer.withUnsafeMutableBytes(body)
    }

    deinit {
        withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}

/// Turns echo back on if the process is interrupted while a secret prompt has it off.
private enum EchoGuard {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    /// On the heap, not a global `termios`: the compiler gives such a global 57 bytes (the struct without its tail
    /// padding) but copies 60 into it, which AddressSanitizer reports as a global buffer overflow.
    nonisolated(unsafe) static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)

    static func hide(descriptor: Int32, saved: termios, quiet: termios) {
        Self.descriptor = descriptor
        Self.saved.pointee = saved
        var quiet = quiet
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            Glibc.signal(signal) { received in
                tcsetattr(EchoGuard.descriptor, TCSAFLUSH, EchoGuard.saved)
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
        }
        tcsetattr(descriptor, TCSAFLUSH, &quiet)
    }

    static func restore() {
        tcsetattr(descriptor, TCSAFLUSH, saved)
        for signal in [SIGINT, SIGTERM, SIGHUP] { Glibc.signal(signal, SIG_DFL) }
        descriptor = -1
    }
}
