import Foundation
import SystemPlumbing
import TestSupport
import Testing

@testable import AuthVaultCLI

/// In-process: how commands take piped secrets and one-time codes (each on standard input too, with a warning about the command
/// line), and what a child process is given of authvault's environment.
@Suite struct SecretInputOptionTests {
    static let codeCommands: [(command: [String], option: String)] = [
        (["confirm-signup"], "code"), (["confirm-forgot-password"], "code"), (["mfa", "setup-totp"], "code"),
        (["login"], "mfa-code"),
    ]

    @Test func everyCommandTakingACodeReadsItFromStandardInputAndWarnsAboutTheCommandLine() async throws {
        let cli = try CLIHarness()
        for (command, option) in Self.codeCommands {
            let help = await cli.run(command + ["--help"])
            #expect(help.stdout.contains("--\(option)-stdin"), "\(command)")
            #expect(help.stdout.contains("--\(option) <code>"), "\(command)")
            #expect(help.stdout.contains("any user of this machine can read"), "\(command)")
            let both = await cli.run(command + ["--\(option)", "123456", "--\(option)-stdin"])
            #expect(both.status == .usage, "\(command)")
            #expect(both.stderr.contains("not both"), "\(command): \(both.stderr)")
        }
    }

    /// Standard input is the invocation's own, given in-process: a piped client secret goes to the vault and is
    /// never printed; an empty one is a usage error and nothing is stored.
    @Test func aPipedSecretIsReadFromTheGivenStandardInput() async throws {
        var cli = try CLIHarness()
        cli.environment["AUTHVAULT_VAULT_PASSPHRASE"] = "in-process vault words"
        cli.environment["AUTHVAULT_KEY_CACHE_TIMEOUT"] = "0"
        let configure = [
            "configure", "--user-pool-id", "eu-west-1_AbC123", "--client-id", "client1", "--vault", "file",
        ]
        #expect(await cli.run(configure).status == .success)

        let empty = await cli.run(["configure", "--client-secret-stdin"], stdin: "")
        #expect(empty.status == .usage && empty.stderr.contains("standard input is empty"), "\(empty.stderr)")
        let record = cli.home.appending(".local/share/authvault/default.record")
        #expect(!FileManager.default.fileExists(atPath: record))

        let stored = await cli.run(["configure", "--client-secret-stdin"], stdin: "piped-client-secret\n")
        #expect(stored.status == .success, "\(stored.stderr)")
        #expect(stored.stderr.contains("Stored the client secret of profile 'default' in file"), "\(stored.stderr)")
        #expect(FileManager.default.fileExists(atPath: record))
        #expect(!(stored.stdout + stored.stderr).contains("piped-client-secret"))
    }

    @Test func aChildGetsOurEnvironmentWithoutOurVariables() {
        let ours = [
            "PATH": "/usr/bin", "HOME": "/home/a", "AUTHVAULT_VAULT_PASSPHRASE": "words", "AUTHVAULT_PROFILE": "work",
            "MY_AUTHVAULT_NOTE": "kept",
        ]
        #expect(
            ChildProcess.environment(from: ours) == [
                "PATH": "/usr/bin", "HOME": "/home/a", "MY_AUTHVAULT_NOTE": "kept",
            ])
    }

    @Test func childArraysAreNullTerminatedCStrings() {
        let seen = CStringArrays.with(["/bin/true", "x"], ["A": "1"]) { argv, envp in
            (
                argv.dropLast().map { String(cString: $0!) }, argv.last!, envp.dropLast().map { String(cString: $0!) },
                envp.last!
            )
        }
        #expect(seen.0 == ["/bin/true", "x"] && seen.1 == nil)
        #expect(seen.2 == ["A=1"] && seen.3 == nil)
    }
}
