import Foundation
import TestSupport
import Testing

/// `login` on a profile signed in already, through the built binary against moto behind a recording proxy: it says
/// whose session and until when, names `--force`, exits 0 and sends nothing; `--force`, or another user, signs in.
@Suite struct LoginTwiceTests {
    @Test func aSecondLoginSaysWhoAndUntilWhenAndSendsNothing() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let before = try await profile.proxy.records().count
        for again in [
            try await cli.run(["login"]),
            try await cli.login(SignedInProfile.username, lines: [SignedInProfile.password]),
        ] {
            #expect(again.status == 0, "\(again.stderrText)")
            #expect(
                again.stderrText.contains("Already signed in as \(SignedInProfile.username)")
                    && again.stderrText.contains("its access token valid until ")
                    && again.stderrText.contains("'authvault login --profile default --force' signs in again."),
                "\(again.stderrText)")
        }
        #expect(try await profile.proxy.records().count == before, "nothing was sent")

        let forced = try await cli.login(SignedInProfile.username, lines: [SignedInProfile.password], ["--force"])
        #expect(forced.status == 0 && forced.stderrText.contains("Signed in as"), "\(forced.stderrText)")
        #expect(try await profile.operations(after: before).contains("InitiateAuth"), "--force signs in")

        // Another user is a sign-in: here one moto refuses, and the session stays.
        let sent = try await profile.proxy.records().count
        let other = try await cli.login("somebody-else", lines: ["Not-The-Password-1!"])
        #expect(other.status != 0 && !other.stderrText.contains("Already signed in"), "\(other.stderrText)")
        #expect(try await profile.proxy.records().count > sent)
        cli.expectNoSecretLeaks()
    }

    /// With the refresh token's validity known, its end is what is said (past it: `LoginNeedTests`).
    @Test func theRefreshTokensEndIsSaidWhereItIsKnown() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        #expect(try await cli.run(["configure", "--refresh-token-validity", "60m"]).status == 0)
        let again = try await cli.run(["login"])
        #expect(
            again.status == 0 && again.stderrText.contains("in 60 min, when its refresh token ends"),
            "\(again.stderrText)")
    }
}
