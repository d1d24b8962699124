import AuthVaultApp
import Foundation
import TestSupport

@testable import AuthVaultCLI

/// Runs the CLI in-process against an isolated configuration directory and captures what it prints.
struct CLIHarness {
    let home: TemporaryDirectory
    var environment: [String: String]

    init() throws {
        home = try TemporaryDirectory()
        environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appending("config")]
    }

    var configPath: String { home.appending("config/authvault/config.json") }

    struct Result {
        let status: ExitStatus
        let stdout: String
        let stderr: String
    }

    func run(_ arguments: String...) async -> Result {
        await run(arguments)
    }

    /// `authvault ARGUMENTS` with `stdin` as its standard input (empty when nil).
    func run(_ arguments: [String], stdin: String? = nil) async -> Result {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await AuthVault.run(
            arguments: arguments, environment: environment, standardOutput: out, standardError: err,
            standardInput: GivenInput(stdin ?? ""))
        return Result(status: status, stdout: out.text, stderr: err.text)
    }

    func configText() throws -> String {
        try String(contentsOfFile: configPath, encoding: .utf8)
    }
}
