import Foundation
import TestSupport
import Testing

/// What a new user meets in the first hour, driven through the built binary: the README's scripted sign-in on a new
/// file vault (its passphrase asked on the terminal while the password comes down a pipe), a wrong passphrase asked
/// again, `vault unlock` where no vault exists, a locked vault said once, `exec`'s statuses.
@Suite struct FirstHourTerminalTests {
    private static let passphrase = "first hour vault words"

    /// A headless home configured for a new pool at moto with `user`, nobody signed in yet.
    private static func configured(for user: String, password: String) async throws -> HeadlessCLI {
        let pool = try await CognitoPool.make()
        try await pool.createUser(user, password: password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        cli.remember(password, as: "\(user)'s password")
        return cli
    }

    /// `printf '%s\n' "$PASSWORD" | authvault login --username alice --password-stdin` on a terminal, with no
    /// passphrase in the environment: asked on /dev/tty, twice for the new vault, after saying what it protects.
    @Test func aScriptedSignInAsksTheNewVaultPassphraseOnTheTerminal() async throws {
        let password = "Alice-Passw0rd!"
        let cli = try await Self.configured(for: "alice", password: password)
        cli.remember(Self.passphrase, as: "the typed vault passphrase")
        let environment = cli.environment.merging([
            "TERM": "dumb", "ALICE_PASSWORD": password, "AUTHVAULT_KEY_CACHE_TIMEOUT": "600",
        ]) { $1 }
        .filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let script = #"printf '%s\n' "$ALICE_PASSWORD" | "$0" login --username alice --password-stdin"#
        let run = try await OffPool.run {
            try PseudoTerminal.run(
                ["/bin/sh", "-c", script, cli.authvault],
                answers: [
                    ("New vault passphrase: ", Self.passphrase), ("Repeat the vault passphrase: ", Self.passphrase),
                ],
                environment: environment)
        }
        #expect(run.status == 0 && run.answered == 2, "\(run.screen)")
        #expect(
            run.screen.contains("A new vault passphrase protects the tokens in \(cli.dataDirectory)"), "\(run.screen)")
        #expect(run.screen.contains("remembered for 10 min in your user keyring"), "\(run.screen)")
        #expect(run.screen.contains("Signed in as alice"), "\(run.screen)")
        #expect(!run.screen.contains(Self.passphrase) && !run.screen.contains(password))
        #expect(FileManager.default.fileExists(atPath: cli.keyFilePath))
        _ = try await cli.run(["vault", "lock"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])

        // Without a terminal (and no key cached), the refusal names the file that gives the passphrase, and the unlock.
        let token = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(token.status == 4 && token.stdout.isEmpty, "\(token.stderrText)")
        #expect(
            token.stderrText.contains("AUTHVAULT_VAULT_PASSPHRASE_FILE")
                && token.stderrText.contains("'authvault vault unlock'"),
            "\(token.stderrText)")

        // `status` says the state once, in the words of --json and docs/configuration.md, and names the unlock.
        let status = try await cli.run(["status"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(status.status == 4, "\(status.stdoutText)")
        #expect(status.stdoutText.contains("State:      vault locked\n"), "\(status.stdoutText)")
        #expect(
            status.stdoutText.components(separatedBy: "needs its passphrase").count == 2,
            "said once: \(status.stdoutText)")
        #expect(status.stdoutText.contains("'authvault vault unlock'"), "\(status.stdoutText)")
        let json = try await cli.run(["status", "--json"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(
            json.stdoutText.contains(#""state":"vaultLocked""#)
                || json.stdoutText.contains(#""state" : "vaultLocked""#), "\(json.stdoutText)")

        // A wrong passphrase at the terminal is asked again; the third try is the right one.
        let unlockEnvironment = environment.merging(["AUTHVAULT_KEY_CACHE_TIMEOUT": "0"]) { $1 }
        let unlock = try await OffPool.run {
            try PseudoTerminal.run(
                [cli.authvault, "vault", "unlock"],
                answers: [
                    ("Vault passphrase: ", "wrong words"), ("Vault passphrase: ", "more wrong words"),
                    ("Vault passphrase: ", Self.passphrase),
                ],
                environment: unlockEnvironment)
        }
        #expect(unlock.status == 0 && unlock.answered == 3, "\(unlock.screen)")
        #expect(
            unlock.screen.components(separatedBy: "Wrong vault passphrase, try again.").count == 3, "\(unlock.screen)")
        #expect(unlock.screen.contains("Unlocked the encrypted file vault."), "\(unlock.screen)")
        cli.expectNoSecretLeaks()
    }

    /// `vault unlock` where no vault was ever created says so and how one is made, exits 1, and creates nothing.
    @Test func unlockingAVaultThatDoesNotExistSaysSo() async throws {
        let cli = try HeadlessCLI()
        #expect(
            try await cli.run([
                "configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file",
            ]).status == 0)
        let unlock = try await cli.run(["vault", "unlock"])
        #expect(unlock.status == 1, "\(unlock.stderrText)")
        #expect(
            unlock.stderrText.contains("There is no encrypted file vault in \(cli.dataDirectory) yet"),
            "\(unlock.stderrText)")
        #expect(
            unlock.stderrText.contains("'authvault login'") && !unlock.stderrText.contains("Unlocked"),
            "\(unlock.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: cli.keyFilePath))
    }

    /// `exec` as env(1): a command's option before '--' is explained, not found is 127, found but not runnable is 126.
    @Test func execSaysWhereTheDashesGoAndExitsAsEnvDoes() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let options = try await cli.run(["exec", "ls", "-la"])
        #expect(options.status == 2, "\(options.stderrText)")
        #expect(
            options.stderrText.contains("put '--' before the command: authvault exec -- ls -la"),
            "\(options.stderrText)")
        let valued = try await cli.run(["exec", "curl", "--header=Authorization: Bearer not-for-the-screen"])
        #expect(valued.status == 2 && valued.stderrText.contains("-- curl --header ..."), "\(valued.stderrText)")
        #expect(
            !valued.stderrText.contains("not-for-the-screen"), "an option's value is not repeated: \(valued.stderrText)"
        )
        let missing = try await cli.run(["exec", "--", "no-such-command-authvault"])
        #expect(missing.status == 127, "\(missing.stderrText)")
        let notExecutable = try await cli.run(["exec", "--", cli.configPath])
        #expect(notExecutable.status == 126, "\(notExecutable.stderrText)")
        #expect(notExecutable.stderrText.contains("Permission denied"), "\(notExecutable.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// A wrong password typed at the terminal is asked again, three tries in all; the third wrong one is the end
    /// (USER_PASSWORD_AUTH: moto checks the password there, not in its SRP).
    @Test func aWrongPasswordAtTheTerminalIsAskedAgainThreeTries() async throws {
        let password = "Bob-Passw0rd-9!"
        let cli = try await Self.configured(for: "bob", password: password)
        let signedIn = try await cli.runOnTerminal(
            ["login", "--auth-flow", "password", "--username", "bob"],
            answers: [("Password for bob: ", "Not-It-1!"), ("Password for bob: ", password)])
        #expect(signedIn.status == 0 && signedIn.answered == 2, "\(signedIn.screen)")
        #expect(
            signedIn.screen.contains("Incorrect user name or password; try the password again."), "\(signedIn.screen)")
        #expect(signedIn.screen.contains("Signed in as bob"), "\(signedIn.screen)")
        _ = try await cli.run(["logout"])

        let refused = try await cli.runOnTerminal(
            ["login", "--auth-flow", "password", "--username", "bob"],
            answers: [
                ("Password for bob: ", "Not-It-1!"), ("Password for bob: ", "Not-It-2!"),
                ("Password for bob: ", "Not-It-3!"), ("Password for bob: ", password),
            ])
        #expect(refused.status != 0 && refused.answered == 3, "\(refused.screen)")
        #expect(refused.screen.components(separatedBy: "try the password again").count == 3, "\(refused.screen)")

        // On standard input, a wrong password is not asked again: a script gets its error at once.
        let piped = try await cli.run(
            ["login", "--auth-flow", "password", "--username", "bob", "--password-stdin"], stdin: "Not-It-4!\n")
        #expect(piped.status != 0 && !piped.stderrText.contains("try the password again"), "\(piped.stderrText)")
        cli.expectNoSecretLeaks()
    }
}
