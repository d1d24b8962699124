import Testing

@testable import AuthVaultCLI

/// `version` and `help` beside `--version` and `--help`, and "Did you mean" for a near miss.
@Suite struct HelpAndSuggestionTests {
    @Test func versionAndHelpCommandsPrintWhatTheOptionsPrint() async throws {
        let cli = try CLIHarness()
        let version = await cli.run("version")
        let versionOption = await cli.run("--version")
        #expect(
            version.status == .success && version.stdout == versionOption.stdout
                && version.stdout.hasPrefix("authvault "))
        for path in [[], ["login"], ["vault"], ["vault", "migrate"]] {
            let command = await cli.run(["help"] + path)
            let option = await cli.run(path + ["--help"])
            #expect(command.status == .success, "\(path)")
            #expect(command.stdout == option.stdout, "\(path)")
        }
        let root = await cli.run("--help")
        #expect(root.stdout.contains("  help ") && root.stdout.contains("  version "))
    }

    @Test(arguments: [
        (["logn"], "Unknown command 'logn'.\nDid you mean 'login'?"),
        (["stauts"], "Unknown command 'stauts'.\nDid you mean 'status'?"),
        (["vault", "migrat"], "Unknown command 'migrat'.\nDid you mean 'migrate'?"),
        (["login", "--no-browsr"], "Unknown option '--no-browsr'.\nDid you mean '--no-browser'?"),
        (["token", "--profil", "x"], "Unknown option '--profil'.\nDid you mean '--profile'?"),
        (["help", "confgure"], "Unknown command 'confgure'.\nDid you mean 'configure'?"),
        (["help", "vault", "lok"], "Unknown command 'vault lok'.\nDid you mean 'lock'?"),
        // Issue 26: --device-name is the remembered device's name, on login only; the authenticator has its own.
        (
            ["mfa", "setup-totp", "--device-name", "phone"],
            "Unknown option '--device-name': --device-name is the remembered device's name, on 'login'.\nDid you mean '--authenticator-name'?"
        ),
        (
            ["mfa", "setup-totp", "--device-name=phone"],
            "Unknown option '--device-name': --device-name is the remembered device's name, on 'login'.\nDid you mean '--authenticator-name'?"
        ),
    ])
    func aNearMissIsSuggestedOnALineOfItsOwn(arguments: [String], message: String) async throws {
        let result = try await CLIHarness().run(arguments)
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("Error: \(message)\nSee '"), "\(result.stderr)")
    }

    @Test func nothingCloseIsNotSuggested() async throws {
        for arguments in [["frobnicate"], ["login", "--zzzzzz"], ["help", "qqq"]] {
            let result = try await CLIHarness().run(arguments)
            #expect(result.status == .usage && !result.stderr.contains("Did you mean"), "\(arguments)")
        }
    }

    /// `--device-name` means one thing: login has it, the authenticator's name is --authenticator-name in help and
    /// completion alike.
    @Test func deviceNameMeansTheRememberedDeviceOnly() async throws {
        let cli = try CLIHarness()
        let totp = await cli.run(["mfa", "setup-totp", "--help"])
        let login = await cli.run(["login", "--help"])
        #expect(
            totp.stdout.contains("--authenticator-name <name>") && !totp.stdout.contains("--device-name"),
            "\(totp.stdout)")
        #expect(login.stdout.contains("--device-name <name>") && !login.stdout.contains("--authenticator-name"))
        let bash = await cli.run(["completion", "bash"])
        #expect(bash.stdout.contains("--authenticator-name"), "the completion offers the new name")
    }

    @Test func distanceCountsASwapAsOneEdit() {
        #expect(Suggestion.distance(Array("stauts"), Array("status")) == 1)
        #expect(Suggestion.distance(Array("login"), Array("login")) == 0)
        #expect(Suggestion.closest(to: "conf", among: ["configure", "completion"]) == "configure")
        #expect(Suggestion.closest(to: "co", among: ["configure", "completion"]) == nil)
    }
}
