import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command writes. Standard output carries only results (a token, JSON, a table); messages go to standard
/// error. Tests capture both in memory.
protocol TextOutput: Sendable {
    func write(_ text: String)
}

extension TextOutput {
    func line(_ text: String) { write(text + "\n") }
}

/// A file descriptor: 1 or 2.
struct FileDescriptorOutput: TextOutput {
    let descriptor: Int32

    static let standardOutput = FileDescriptorOutput(descriptor: 1)
    static let standardError = FileDescriptorOutput(descriptor: 2)

    func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                guard
                    let written = try? SystemCall.retryingInterrupts(
                        "write",
                        {
                            Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                        })
                else { return }
                offset += written
            }
        }
    }
}

/// Output kept in memory, for tests.
final class CapturedOutput: TextOutput {
    private let storage = Locked("")

    init() {}

    func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    var text: String { storage.withLock { $0 } }
}
