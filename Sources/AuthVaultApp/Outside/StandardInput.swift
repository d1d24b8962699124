import AuthCrypto
import SystemPlumbing

/// Where piped secrets come from (`--password-stdin`, `--client-secret-stdin`, a pasted redirect): the process's
/// standard input for the command line, given bytes for a test or a program that runs a use in-process.
public protocol StandardInput: Sendable {
    /// The next non-empty line, read only as far as its newline (what follows stays for the next question, and a
    /// script may write it later); nil at the end of input.
    func nextLine() -> SecretBytes?
    /// The first line of what is left (possibly empty), reading all of it; nil when nothing is left.
    func firstLine() -> [UInt8]?
}

/// Standard input given as bytes, read once and wiped as it goes.
public final class GivenInput: StandardInput {
    private let remaining: Locked<[UInt8]>

    public init(_ text: String) {
        remaining = Locked(Array(text.utf8))
    }

    public func nextLine() -> SecretBytes? {
        remaining.withLock { bytes in
            while !bytes.isEmpty {
                let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                var line = Array(bytes[..<end])
                bytes.replaceSubrange(..<min(end + 1, bytes.endIndex), with: [])
                defer { line.wipe() }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                if !line.isEmpty { return SecretBytes(line) }
            }
            return nil
        }
    }

    public func firstLine() -> [UInt8]? {
        remaining.withLock { bytes in
            guard !bytes.isEmpty else { return nil }
            defer {
                bytes.wipe()
                bytes = []
            }
            let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
            return Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
    }
}
