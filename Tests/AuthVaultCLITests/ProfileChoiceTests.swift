import AuthVaultApp
import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// `profiles use` (a current profile kept in the configuration, below --profile and $AUTHVAULT_PROFILE) and
/// `profiles remove` (the configuration and the vault record, after a confirmation or --yes).
@Suite struct ProfileChoiceTests {
    /// Every command that shows one profile shows the one `--profile` names, not the current one (status once showed
    /// the current profile whatever the flag said).
    @Test func theFlagChoosesTheProfileEachCommandShows() async throws {
        let cli = try CLIHarness()
        _ = await cli.run("configure", "--user-pool-id", "us-east-1_A1", "--client-id", "a")
        _ = await cli.run("-p", "work", "configure", "--user-pool-id", "us-east-1_W1", "--client-id", "w")
        for arguments in [
            ["--profile", "work", "status"], ["status", "--profile", "work"], ["-p", "work", "status", "--json"],
        ] {
            let shown = await cli.run(arguments)
            #expect(
                shown.stdout.contains("work") && !shown.stdout.contains("us-east-1_A1"), "\(arguments): \(shown.stdout)"
            )
        }
        let unknown = await cli.run("--profile", "nosuch", "status")
        #expect(unknown.status != .success && unknown.stderr.contains("No profile named 'nosuch'"), "\(unknown.stderr)")
    }

    @Test func useChoosesTheProfileBelowTheFlagAndTheEnvironment() async throws {
        var cli = try CLIHarness()
        _ = await cli.run("configure", "--user-pool-id", "us-east-1_A1", "--client-id", "a")
        _ = await cli.run("-p", "work", "configure", "--user-pool-id", "us-east-1_W1", "--client-id", "w")
        #expect(await cli.run("profiles", "list", "--names").stdout == "default\nwork\n")

        let use = await cli.run("profiles", "use", "work")
        #expect(use.status == .success, "\(use.stderr)")
        #expect(use.stderr.contains("Profile 'work' is now the current profile."))
        #expect(try cli.configText().contains(#""currentProfile" : "work""#))
        #expect(await cli.run("profiles").stdout.contains("*  work"))
        let json =
            (try JSONSerialization.jsonObject(with: Data(await cli.run("profiles", "--json").stdout.utf8))
            as? [String: Any])?["profiles"]
            as? [[String: Any]]
        #expect(json?.first { $0["name"] as? String == "work" }?["current"] as? Bool == true)
        // The flag and the variable still win.
        #expect(await cli.run("--profile", "default", "profiles").stdout.contains("*  default"))
        cli.environment["AUTHVAULT_PROFILE"] = "default"
        #expect(await cli.run("profiles").stdout.contains("*  default"))
        let overridden = await cli.run("profiles", "use", "work")
        #expect(overridden.stderr.contains("$AUTHVAULT_PROFILE is set to 'default' here"))
        cli.environment["AUTHVAULT_PROFILE"] = nil
        // The application reads it too (a library's default profile).
        let application = Application(environment: EnvironmentVariables(cli.environment))
        #expect(application.defaultProfileName == "work")

        let unknown = await cli.run("profiles", "use", "nope")
        #expect(unknown.status == .failure)
        #expect(unknown.stderr.contains("No profile named 'nope'") && unknown.stderr.contains("default, work"))
        #expect(await cli.run("profiles").stdout.contains("*  work"), "a failed use changes nothing")

        let reset = await cli.run("profiles", "use", "")
        #expect(reset.status == .success)
        #expect(!(try cli.configText().contains("currentProfile")))
        #expect(await cli.run("profiles").stdout.contains("*  default"))
    }

    @Test func removeAsksFirstThenTakesTheConfigurationAndTheVaultRecord() async throws {
        let cli = try HeadlessCLI()
        let configure = try await cli.run(
            [
                "-p", "gone", "configure", "--user-pool-id", "us-east-1_G1", "--client-id", "g",
                "--vault", "file", "--client-secret-stdin",
            ], stdin: "client-secret-to-forget\n")
        cli.remember("client-secret-to-forget", as: "the client secret")
        #expect(configure.status == 0, "\(configure.stderrText)")
        #expect(
            try await cli.run(["-p", "kept", "configure", "--user-pool-id", "us-east-1_K1", "--client-id", "k"]).status
                == 0)
        #expect(try await cli.run(["profiles", "use", "gone"]).status == 0)
        let record = "\(cli.dataDirectory)/gone.record"
        #expect(FileManager.default.fileExists(atPath: record), "the client secret is in a vault record")

        let unconfirmed = try await cli.run(["profiles", "remove", "gone"])
        #expect(unconfirmed.status == 2)
        #expect(unconfirmed.stderrText.contains("--yes"))
        #expect(FileManager.default.fileExists(atPath: record), "nothing is removed without a confirmation")

        let declined = try await cli.runOnTerminal(
            ["profiles", "remove", "gone"], answers: [("Remove profile 'gone'", "n")])
        #expect(declined.status == 1, "\(declined.screen)")
        #expect(FileManager.default.fileExists(atPath: record))

        let removed = try await cli.run(["profiles", "remove", "gone", "--yes"])
        #expect(removed.status == 0, "\(removed.stderrText)")
        #expect(
            removed.stderrText.contains(
                "Deleted its tokens, client secret, device keys and AWS credentials from the encrypted file vault"))
        #expect(removed.stderrText.contains("It was the current profile"))
        #expect(!FileManager.default.fileExists(atPath: record))
        let names = try await cli.run(["profiles", "list", "--names"])
        #expect(names.stdoutText == "kept\n")
        let config = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(!config.contains("currentProfile") && !config.contains("gone"))

        let again = try await cli.run(["profiles", "remove", "gone", "--yes"])
        #expect(again.status == 1)
        #expect(again.stderrText.contains("No profile named 'gone'"))
        cli.expectNoSecretLeaks()
    }
}
