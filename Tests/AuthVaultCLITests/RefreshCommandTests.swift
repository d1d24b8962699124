import Foundation
import TestSupport
import Testing

/// `authvault refresh` against moto: new tokens at once, one call upstream; without a session, exit status 3.
@Suite struct RefreshCommandTests {
    @Test func refreshGetsNewTokensWithOneCallAndKeepsTheSession() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let before = try #require(try await cli.storedRecord())
        let baseline = try await profile.proxy.records().count
        let refresh = try await cli.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderrText)")
        #expect(refresh.stderrText.contains("Refreshed the tokens of"))
        #expect(try await profile.operations(after: baseline) == ["InitiateAuth"])
        let after = try #require(try await cli.storedRecord())
        let changed = !sameSecret(after["accessToken"] as? String, before["accessToken"] as? String)
        #expect(changed, "a new access token is stored")
        #expect((after["revision"] as? Int ?? 0) > (before["revision"] as? Int ?? 0))
        cli.expectNoSecretLeaks()
    }

    @Test func withoutASessionRefreshSaysToSignIn() async throws {
        let cli = try HeadlessCLI()
        _ = try await cli.run([
            "configure", "--user-pool-id", "us-east-1_None", "--client-id", "abc", "--vault", "file",
        ])
        let refresh = try await cli.run(["refresh"])
        #expect(refresh.status == 3)
        #expect(refresh.stderrText.contains("authvault login"))
    }
}
