import SystemPlumbing
import Testing

/// The milliseconds a deadline gives `poll`: rounded up, 0 once passed, and at most Int32.max however far the
/// deadline is (`login --timeout 9223372036854775807` once trapped multiplying its seconds by 1000).
@Suite struct PollTimeoutTests {
    @Test func aDeadlineIsMillisecondsRoundedUpAndSaturates() {
        let now = ContinuousClock.now
        #expect((now + .microseconds(1500)).pollTimeout(from: now) == 2)
        #expect((now - .seconds(1)).pollTimeout(from: now) == 0)
        #expect((now + .seconds(2_147_483)).pollTimeout(from: now) == Int32.max)
        #expect((now + .seconds(Int64.max)).pollTimeout(from: now) == Int32.max)
    }
}
