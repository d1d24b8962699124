import Testing

@testable import AuthVaultCLI

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(root: AuthVault.commands)

    @Test func optionsBeforeAndAfterTheCommandAndInlineValues() throws {
        guard
            case .run(let type, let parsed, let path) = try parser.parse([
                "--profile", "work", "configure", "--region=eu-west-1", "--client-id", "abc",
            ])
        else {
            Issue.record("expected a command")
            return
        }
        #expect(type.spec.name == ConfigureCommand.spec.name)
        #expect(path == ["authvault", "configure"])
        #expect(parsed.value(GlobalOption.profile) == "work")
        #expect(parsed.value(ConfigureCommand.region) == "eu-west-1")
        #expect(parsed.value(ConfigureCommand.clientId) == "abc")
    }

    @Test func shortOptionAndRepeatableValuesKeepOrder() throws {
        guard
            case .run(_, let parsed, _) = try parser.parse([
                "configure", "-p", "x", "--redirect-uri", "a", "--redirect-uri", "b",
            ])
        else {
            Issue.record("expected a command")
            return
        }
        #expect(parsed.value(GlobalOption.profile) == "x")
        #expect(parsed.values(ConfigureCommand.redirectURI) == ["a", "b"])
    }

    @Test func aGroupWithADefaultRunsItUnlessAChildIsNamed() throws {
        for (arguments, command, path) in [
            (["profiles"], "list", ["authvault", "profiles", "list"]),
            (["profiles", "--json"], "list", ["authvault", "profiles", "list"]),
            (["-p", "x", "profiles", "--names"], "list", ["authvault", "profiles", "list"]),
            (["profiles", "-p", "x", "use", "y"], "use", ["authvault", "profiles", "use"]),
            (["profiles", "remove", "y", "--yes"], "remove", ["authvault", "profiles", "remove"]),
        ] {
            guard case .run(let type, _, let parsedPath) = try parser.parse(arguments) else {
                Issue.record("expected a command for \(arguments)")
                continue
            }
            #expect(type.spec.name == command, "\(arguments)")
            #expect(parsedPath == path, "\(arguments)")
        }
        guard case .help(let node, _) = try parser.parse(["profiles", "--help"]) else {
            Issue.record("expected help")
            return
        }
        #expect(node.name == "profiles", "help for the group lists its commands")
        #expect(throws: UsageError.self) { try parser.parse(["vault"]) }
    }

    @Test func helpAnywhereShowsTheDeepestCommand() throws {
        guard case .help(let node, let path) = try parser.parse(["configure", "--region", "x", "--help"]) else {
            Issue.record("expected help")
            return
        }
        #expect(node.name == "configure")
        #expect(path == ["authvault", "configure"])
        guard case .help(_, let rootPath) = try parser.parse([]) else {
            Issue.record("expected help")
            return
        }
        #expect(rootPath == ["authvault"])
    }

    @Test(arguments: [
        (["--bogus"], "Unknown option '--bogus'."),
        (["configure", "--bogus=1"], "Unknown option '--bogus'."),
        (["frobnicate"], "Unknown command 'frobnicate'."),
        (["configure", "--region"], "Option '--region' needs a value."),
        (["profiles", "--json=yes"], "Option '--json' takes no value."),
        (["profiles", "list", "extra"], "Unexpected argument 'extra'."),
        (["profiles", "extra"], "Unknown command 'extra'."),
        (["profiles", "use"], "Missing argument <name>."),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try parser.parse(arguments) }
        do {
            _ = try parser.parse(arguments)
        } catch {
            #expect(error.message == message)
        }
    }
}
