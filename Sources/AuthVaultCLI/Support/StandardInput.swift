import AuthCrypto
#if canImport(Glibc)
import Glibc
#endif

/// Secrets piped in by scripts (`--password-stdin`, `--client-secret-stdin`, `--code-stdin`), raw buffers wiped.
enum StandardInput {
    /// The next non-empty line, read only as far as its newline (what follows stays for the next question, and a
    /// script may write it later); nil at the end of input.
    static func nextLine() -> SecretBytes? {
        while let line = LineBuffer.readLine(from: 0) {
            guard line.count > 0 else { continue }
            return SecretBytes(line.buffer[0..<line.count])
        }
        return nil
    }

    /// The first line (possibly empty), or nil when standard input is empty.
    static func firstLine() -> [UInt8]? {
        var buffer = readAll()
        defer { buffer.wipe() }
        guard !buffer.isEmpty else { return nil }
        return lines(of: buffer).first.map(Array.init) ?? []
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
            let count = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            buffer += chunk[0..<count]
        }
        return buffer
    }
}
