import Testing
@testable import AuthVaultCLI

@Suite struct TypedOptionTests {
    let parser = ArgumentParser(root: AuthVault.commands)

    @Test func helpShowsTheDeclaredDefault() {
        let help = HelpFormatter.render(.command(LoginCommand.self), path: ["authvault", "login"])
        #expect(help.contains("How long to wait for the browser. (default: 180)"))
        #expect(HelpFormatter.render(.command(TokenCommand.self), path: ["authvault", "token"]).contains("(default: bare)"))
    }

    @Test func absentIsTheDefaultAndABadValueNamesWhatWouldDo() throws {
        guard case .run(_, let parsed, _) = try parser.parse(["login"]) else { Issue.record("expected a command"); return }
        #expect(try parsed.value(LoginCommand.timeout) == 180)
        #expect(throws: UsageError("Invalid value '0' for --timeout: expected a whole number of seconds.")) {
            guard case .run(_, let bad, _) = try parser.parse(["login", "--timeout", "0"]) else { return }
            _ = try bad.value(LoginCommand.timeout)
        }
        #expect(throws: UsageError("Invalid value 'xml' for --format: expected bare, header or json.")) {
            guard case .run(_, let bad, _) = try parser.parse(["token", "--format", "xml"]) else { return }
            _ = try bad.value(TokenCommand.format)
        }
    }
}
