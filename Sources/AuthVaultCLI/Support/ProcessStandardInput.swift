import AuthVaultApp
import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// The process's standard input, where scripts pipe secrets (`--password-stdin`, `--client-secret-stdin`,
/// `--code-stdin`); raw buffers wiped.
struct ProcessStandardInput: StandardInput {
    func nextLine() -> SecretBytes? {
        while let line = LineBuffer.readLine(from: 0) {
            guard line.count > 0 else { continue }
            return SecretBytes(line.buffer[0..<line.count])
        }
        return nil
    }

    func firstLine() -> [UInt8]? {
        var buffer = Self.readAll()
        defer { buffer.wipe() }
        guard !buffer.isEmpty else { return nil }
        return Self.lines(of: buffer).first.map(Array.init) ?? []
    }

    private static func lines(of buffer: [UInt8]) -> [ArraySlice<UInt8>] {
        buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
    }

    private static func readAll() -> [UInt8] {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { chunk.wipe() }
        while true {
            guard
                let count = try? SystemCall.retryingInterrupts(
                    "read",
                    {
                        chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
                    }), count > 0
            else { break }
            buffer += chunk[0..<count]
        }
        return buffer
    }
}
