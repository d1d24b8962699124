import DebugTrace
import SystemPlumbing
import Testing

@Suite struct DebugTraceTests {
    final class Lines: Sendable {
        let all = Locked<[String]>([])
        var trace: DebugTrace { DebugTrace { line in self.all.withLock { $0.append(line) } } }
    }

    @Test func anOffTraceBuildsNoMessage() async {
        let built = Locked(0)
        let message = { () -> String in
            built.withLock { $0 += 1 }
            return "costly"
        }
        DebugTrace.off(message())
        let value = await DebugTrace.off.timed(message()) { 7 }
        #expect(value == 7)
        #expect(built.withLock { $0 } == 0)
        #expect(!DebugTrace.off.isOn)
    }

    @Test func anOnTraceSaysWhatAndHowLong() async throws {
        let lines = Lines()
        lines.trace("profile 'work'")
        _ = await lines.trace.timed("POST https://example.com/ → 200") { 1 }
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await lines.trace.timed("D-Bus lookup") { () async throws(Failure) in throw Failure() }
        }
        let all = lines.all.withLock { $0 }
        #expect(all.count == 3)
        #expect(all[0] == "profile 'work'")
        #expect(all[1].hasPrefix("POST https://example.com/ → 200 in ") && all[1].hasSuffix(" ms"), "\(all[1])")
        #expect(all[2].hasPrefix("D-Bus lookup failed after "), "\(all[2])")
    }

    @Test func millisecondsHaveOneDecimal() {
        let text = DebugTrace.milliseconds(since: .now - .microseconds(12_345))
        #expect(text.hasPrefix("12.3 ms") || text.hasPrefix("12.4 ms") || text.hasPrefix("12.5 ms"), "\(text)")
    }
}
