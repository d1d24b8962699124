import Foundation
import TestSupport
import Testing

@testable import AuthVaultApp

/// A token or set of credentials kept fresh waits for its expiry however far off (or nonsensical) it is said to be:
/// the wait is at most a day and never traps. The agent's reply bounds the times it reads (AgentReplyTimesTests);
/// this bounds the waits themselves.
@Suite struct RefreshPauseTests {
    @Test func aPauseIsBetweenZeroAndADay() {
        #expect(Duration.refreshPause(seconds: 90) == .seconds(90))
        #expect(Duration.refreshPause(seconds: 0.5) == .milliseconds(500))
        for huge in [86_400, 1e300, .infinity, .greatestFiniteMagnitude] {
            #expect(Duration.refreshPause(seconds: huge) == .seconds(86_400), "\(huge)")
        }
        for none in [0, -1, -1e300, -.infinity, .nan] {
            #expect(Duration.refreshPause(seconds: none) == .zero, "\(none)")
        }
    }

    /// The file's first token and the endpoint's set in hand said to expire in 1e300 or -1e300: both keep waiting.
    @Test(arguments: [1e300, -1e300]) func anExpiryOutOfAnyRangeDoesNotTrap(expiresAt: Double) async throws {
        let parent = try TemporaryDirectory(prefix: "refresh-pause")
        let file = try await TokenFile(in: parent.path, now: { Date().timeIntervalSince1970 }) {
            () async throws(ApplicationError) in
            HelperToken(token: "t", expiresAt: expiresAt, username: "u", profile: "p")
        }
        let warming = AWSCredentialsEndpoint.keepWarm(from: expiresAt, now: { Date().timeIntervalSince1970 }) {
            () async throws(ApplicationError) in
            throw .noUsableSession(SignInNeed(profile: "p"), reason: "none")
        }
        // Each loop computes its first wait at once; a trap there ends the test process.
        try await Task.sleep(for: .milliseconds(300))
        warming.cancel()
        file.remove()
    }
}
