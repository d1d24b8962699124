import TestSupport
import Testing

@testable import CognitoAuth

@Suite struct CognitoTimestampTests {
    /// GNU date formats the same instants: `date -u -d @T '+%a %b %-d %H:%M:%S UTC %Y'` (day not padded).
    @Test(arguments: [
        Int64(0), 951_782_400, 951_868_799, 1_709_164_800, 4_107_542_400, 1_796_243_769, 1_000_000_000, 2_147_483_648,
        253_402_300_799, -86_401,
    ])
    func matchesGNUDate(unixSeconds: Int64) throws {
        let output = try ProcessRunner.run("date", ["-u", "-d", "@\(unixSeconds)", "+%a %b %-d %H:%M:%S UTC %Y"])
        #expect(
            CognitoTimestamp.format(unixSeconds: unixSeconds) == output.stdoutText.trimmingCharacters(in: .newlines))
    }

    /// `date -u -d @1796240167 '+%a %b %-d %H:%M:%S UTC %Y'` prints this. (The pycognito known-answer case
    /// signs "Tue Dec 2 19:36:07 UTC 2026", a fixed string whose weekday is not that date's: it is used as given.)
    @Test func dayIsNotZeroPadded() {
        #expect(CognitoTimestamp.format(unixSeconds: 1_796_240_167) == "Wed Dec 2 19:36:07 UTC 2026")
    }
}
