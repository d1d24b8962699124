internal import CFuzzSupport
import Foundation

/// Puts bytes on standard input for the next command: a pipe holding them, its write end closed, on descriptor 0.
enum StandardInputPipe {
    /// A pipe holds this much without a reader; libFuzzer's -max_len keeps inputs below it, the rest is dropped.
    static let capacity = 65_536

    static func replace(with bytes: [UInt8]) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { fatalError("pipe: \(errno)") }
        let kept = bytes.prefix(capacity)
        let written = kept.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        guard written == kept.count else { fatalError("short write to the input pipe") }
        close(ends[1])
        dup2(ends[0], 0)
        close(ends[0])
        fuzz_reset_standard_input()
    }
}
