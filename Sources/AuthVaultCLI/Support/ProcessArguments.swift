#if canImport(Glibc)
    import Glibc
#endif

/// The process's arguments, program name first. On Linux, `CommandLine.arguments` comes out empty when a library
/// loaded before a dynamically linked Swift runtime has moved the environment (libfaketime preloaded, for one:
/// swiftlang/swift#76080); the kernel's copy is read then.
enum ProcessArguments {
    static func current() -> [String] {
        let arguments = CommandLine.arguments
        return arguments.isEmpty ? split(commandLineFile()) : arguments
    }

    /// The arguments in `/proc/PID/cmdline`'s form: each ends with a NUL byte. Never empty.
    static func split(_ bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return ["authvault"] }
        var parts = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if bytes.last == 0 { parts.removeLast() }
        return parts
    }

    private static func commandLineFile() -> [UInt8] {
        let descriptor = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}
