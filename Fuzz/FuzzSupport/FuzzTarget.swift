internal import CFuzzSupport

/// One parser under libFuzzer. A target is `@main enum X: FuzzTarget` with `test`; `main` hands it to libFuzzer,
/// which runs it on each input. `test` must only return: a crash, a leak or a hang is the finding.
public protocol FuzzTarget {
    static func test(_ input: [UInt8])
}

extension FuzzTarget {
    public static func main() {
        currentTest = test
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        _ = LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
    }
}

/// The target's `test`, for libFuzzer's C callback (which captures nothing). Set once, before libFuzzer starts.
nonisolated(unsafe) private var currentTest: (([UInt8]) -> Void)?

/// Under libFuzzer's own name too: `-sanitize=fuzzer` links libFuzzer's `main` object, which refers to it (the
/// executable's `main` is still SwiftPM's, which calls `FuzzTarget.main`).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    currentTest?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
