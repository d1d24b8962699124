import Foundation
import Testing
import TestSupport
@testable import AuthVaultCLI

/// In-process: how commands take one-time codes (each on standard input too, with a warning about the command
/// line), and what a child process is given of authvault's environment.
@Suite struct SecretInputOptionTests {
    static let codeCommands: [(command: [String], option: String)] = [
        (["confirm-signup"], "code"), (["confirm-forgot-password"], "code"), (["mfa", "setup-totp"], "code"), (["login"], "mfa-code"),
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

    @Test func aChildGetsOurEnvironmentWithoutOurVariables() {
        let ours = ["PATH": "/usr/bin", "HOME": "/home/a", "AUTHVAULT_VAULT_PASSPHRASE": "words", "AUTHVAULT_PROFILE": "work",
                    "MY_AUTHVAULT_NOTE": "kept"]
        #expect(ChildProcess.environment(from: ours) == ["PATH": "/usr/bin", "HOME": "/home/a", "MY_AUTHVAULT_NOTE": "kept"])
    }

    @Test func childArraysAreNullTerminatedCStrings() {
        let seen = ChildProcess.withCArrays(["/bin/true", "x"], ["A": "1"]) { argv, envp in
            (argv.dropLast().map { String(cString: $0!) }, argv.last!, envp.dropLast().map { String(cString: $0!) }, envp.last!)
        }
        #expect(seen.0 == ["/bin/true", "x"] && seen.1 == nil)
        #expect(seen.2 == ["A=1"] && seen.3 == nil)
    }
}
