#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Where a command writes. Standard output carries only results (a token, JSON, a table); messages go to standard
/// error. Tests capture both in memory.
public protocol TextOutput: Sendable {
    func write(_ text: String)
}

extension TextOutput {
    public func line(_ text: String) { write(text + "\n") }
}

/// A file descriptor: 1 or 2.
public struct FileDescriptorOutput: TextOutput {
    let descriptor: Int32

    public static let standardOutput = FileDescriptorOutput(descriptor: 1)
    public static let standardError = FileDescriptorOutput(descriptor: 2)

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// Output kept in memory, for tests.
public final class CapturedOutput: TextOutput {
    private let storage = Mutex("")

    public init() {}

    public func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    public var text: String { storage.withLock { $0 } }
}
