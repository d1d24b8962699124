import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// The manual pages the built binary writes (`authvault __man-pages DIR`, what the package and `make install`
/// install) against its `--help`, both read as a user reads them: the pages rendered by groff, the help as printed.
/// Each command's page lists exactly the options its help lists, authvault(1) the global ones.
@Suite struct ManPageTests {
    let authvault = BuiltProducts.executable("authvault")
    let pages: TemporaryDirectory
    static let groff = "/usr/bin/groff"

    init() throws {
        pages = try TemporaryDirectory(prefix: "authvault-man")
        let written = try ProcessRunner.run(
            authvault, ["__man-pages", pages.path], environment: ["LANG": "C.UTF-8"], timeout: 30)
        guard written.status == 0, written.stderrText.isEmpty else {
            throw TestFixtureError("__man-pages: \(written.stderrText)")
        }
    }

    /// Every command path under the program: `login`, `vault`, `vault unlock`, ...
    static var commandPaths: [[String]] {
        var paths: [[String]] = []
        func visit(_ node: CommandNode, _ path: [String]) {
            paths.append(path)
            for child in node.children { visit(child, path + [child.name]) }
        }
        for child in AuthVault.commands.children { visit(child, [child.name]) }
        return paths
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: groff),
            "groff is not installed (Debian package groff-base)"))
    func eachPageListsTheOptionsItsHelpLists() throws {
        let program = try render("authvault.1")
        #expect(
            try Self.options(in: help([]), section: "OPTIONS:") == Self.options(inPage: program, section: "OPTIONS"))
        #expect(Self.options(inPage: program, section: "OPTIONS").contains("--profile"))
        for heading in ["ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "HELPER NAMES"] {
            #expect(program.contains("\n\(heading)\n"), "authvault(1) has \(heading)")
        }
        var compared = 0
        for path in Self.commandPaths {
            let name = (["authvault"] + path).joined(separator: "-") + ".1"
            let page = try render(name)
            let help = try help(path)
            let options = Self.options(in: help, section: "OPTIONS:")
            compared += options.count
            #expect(options == Self.options(inPage: page, section: "OPTIONS"), "\(name)")
            #expect(
                Self.options(in: help, section: "GLOBAL OPTIONS:")
                    == Self.options(inPage: page, section: "GLOBAL OPTIONS"), "\(name)")
            let overview = try #require(help.split(separator: "\n").first?.dropFirst("OVERVIEW: ".count))
            #expect(page.contains(overview), "\(name) says what --help says the command does")
        }
        #expect(compared > 100, "the help read as having options: \(compared)")
    }

    /// A helper name's page is a `.so` link (man follows it from the manual's root) to its command's page, which
    /// exists; no page is written for the hidden generator itself.
    @Test func theHelperNamesPagesAreTheirCommandsPages() throws {
        for (helper, command) in AuthVault.helperNames {
            let link = try String(contentsOfFile: pages.appending(helper + ".1"), encoding: .utf8)
            #expect(link == ".so man1/authvault-\(command).1\n")
            #expect(FileManager.default.fileExists(atPath: pages.appending("authvault-\(command).1")))
        }
        #expect(!FileManager.default.fileExists(atPath: pages.appending("authvault-__man-pages.1")))
    }

    /// The generator is a packaging step: the program's help and its completion never offer it.
    @Test func theGeneratorIsListedNowhere() throws {
        #expect(try !help([]).contains("__man"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try ProcessRunner.run(
                authvault, ["completion", shell], environment: ["LANG": "C.UTF-8"], timeout: 30)
            #expect(script.status == 0 && !script.stdoutText.contains("__man"), "\(shell)")
        }
    }

    private func help(_ path: [String]) throws -> String {
        let output = try ProcessRunner.run(authvault, path + ["--help"], environment: ["LANG": "C.UTF-8"], timeout: 30)
        guard output.status == 0 else { throw TestFixtureError("\(path) --help: \(output.stderrText)") }
        return output.stdoutText
    }

    /// The page as plain text, lines wide enough that no term wraps.
    private func render(_ name: String) throws -> String {
        let output = try ProcessRunner.run(
            Self.groff, ["-man", "-Tutf8", "-P-cbou", "-rLL=200n", "-ww", pages.appending(name)],
            environment: ["LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"], timeout: 30)
        #expect(output.stderrText.isEmpty, "groff on \(name): \(output.stderrText)")
        guard output.status == 0 else { throw TestFixtureError("groff \(name): \(output.stderrText)") }
        return output.stdoutText
    }

    /// The long option names in a help section: its rows, `  -p, --profile <name>  ...` or `  --json  ...`.
    static func options(in help: String, section: String) -> Set<String> {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == section }) else { return [] }
        let rows = lines[(start + 1)...].prefix { !$0.isEmpty }
        return Set(rows.compactMap { longName(in: $0.drop { $0 == " " }) })
    }

    /// The long option names in a rendered page's section: its terms, the lines indented by one step (7 spaces).
    static func options(inPage page: String, section: String) -> Set<String> {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == section }) else { return [] }
        let body = lines[(start + 1)...].prefix { $0.isEmpty || $0.first == " " }
        return Set(
            body.filter { $0.hasPrefix("       ") && !$0.hasPrefix("        ") }.compactMap {
                longName(in: $0.dropFirst(7))
            })
    }

    /// `--profile` from `-p, --profile <name>` or `--json`; nil for a line that is not an option's.
    private static func longName(in row: Substring) -> String? {
        let names = row.hasPrefix("-") && !row.hasPrefix("--") ? row.drop { $0 != " " }.dropFirst() : row
        guard names.hasPrefix("--") else { return nil }
        return String(names.prefix { !$0.isWhitespace })
    }
}
