import AuthVaultApp
import Foundation
import Testing

/// `TimeText.rfc3339` writes by hand what Foundation's `.iso8601` style writes, which it replaced on the helpers'
/// hot path: the same text for every instant, and Foundation's own answer where the hand-written path stops.
@Suite struct TimeTextTests {
    @Test(arguments: [0, 59, 951_782_400, 1_796_288_860.75, 4_102_444_799, 253_402_300_799, -86_401, 1e12, .infinity])
    func rfc3339IsFoundationsISO8601(seconds: Double) {
        #expect(TimeText.rfc3339(seconds) == Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(.iso8601))
    }

    @Test(
        arguments: [(42.0, "42 s"), (-600.0, "10 min"), (599.6, "10 min"), (7200.0, "2 h"), (-259_200.0, "3 days")]
            as [(Double, String)])
    func spansAreRoundedToTheirUnit(seconds: Double, text: String) {
        #expect(TimeText.span(seconds) == text)
    }

    /// A record's or a server's number may be anything: too large for an Int, or not a number, it is clamped.
    @Test(
        arguments: [(1e300, "1000000000000000 days"), (-.infinity, "1000000000000000 days"), (.nan, "0 days")]
            as [(Double, String)])
    func aSpanOfAnyNumberIsTextNeverATrap(seconds: Double, text: String) {
        #expect(TimeText.span(seconds) == text)
    }
}
