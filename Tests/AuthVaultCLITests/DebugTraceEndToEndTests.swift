import Foundation
import Testing
import TestSupport

/// `--debug` and `$AUTHVAULT_DEBUG` through the binary: the profile and vault chosen, why a refresh happened, each
/// HTTP call with its status and time, how the refresh ended, and whether the agent served; never a secret (the
/// sweep reads every run's stderr for the tokens, old and new).
@Suite struct DebugTraceEndToEndTests {
    @Test func aTokenOnAnExpiredSessionSaysWhatWasDecidedAndSent() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        _ = try await cli.ageTokens(expiringIn: -60)
        let token = try await cli.run(["token", "--debug"])
        #expect(token.status == 0, "\(token.stderrText)")
        let lines = token.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("authvault debug: ") }, "\(lines)")
        for expected in ["profile 'default' from \(cli.configPath), its tokens in the file vault",
                         "profile 'default': the access token expires in -", "in the mandatory refresh window",
                         "HTTP POST \(profile.proxy.endpoint) → 200 in ", "profile 'default': refreshed the tokens"] {
            #expect(lines.contains { $0.contains(expected) }, "\(expected) in \(lines)")
        }
        let record = try #require(try await cli.storedRecord())
        for name in ["accessToken", "idToken", "refreshToken"] {
            if let secret = record[name] as? String { cli.remember(secret, as: "the new \(name)") }
        }

        let quiet = try await cli.run(["token"])
        #expect(quiet.stderr.isEmpty, "no trace unless asked")
        let fromEnvironment = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_DEBUG": "1"])
        #expect(fromEnvironment.stderrText.contains("authvault debug: profile 'default' from"), "\(fromEnvironment.stderrText)")
        #expect(!fromEnvironment.stderrText.contains("HTTP "), "a fresh token needs no request")
        cli.expectNoSecretLeaks()
    }
}
