import Foundation
import TestSupport
import Testing

@testable import AuthVaultApp

/// A token or set of credentials kept fresh waits for its expiry however far off (or nonsensical) it is said to be:
/// the wait never traps (AheadOfExpiryTests bound the wait itself; AgentReplyTimesTests the times an agent says).
@Suite struct ExpiryOutOfRangeTests {
    /// The file's first token and the endpoint's set in hand said to expire in 1e300 or -1e300: both keep waiting.
    @Test(arguments: [1e300, -1e300]) func anExpiryOutOfAnyRangeDoesNotTrap(expiresAt: Double) async throws {
        let parent = try TemporaryDirectory(prefix: "refresh-pause")
        let file = try await TokenFile(in: parent.path, now: { Date().timeIntervalSince1970 }) {
            () async throws(ApplicationError) in
            HelperToken(token: "t", expiresAt: expiresAt, username: "u", profile: "p")
        }
        let warming = AWSCredentialsEndpoint.keepWarm(from: expiresAt, now: { Date().timeIntervalSince1970 }) {
            () async throws(ApplicationError) in
            throw .memoryVaultOutsideProcess
        }
        // Each loop computes its first wait at once; a trap there ends the test process.
        try await Task.sleep(for: .milliseconds(300))
        warming.cancel()
        file.remove()
    }
}
