import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// `configure --helper-sign-in on` through the built binary, with the real git running the helper `setup git`
/// wrote, against django-oauth-toolkit's device flow (RFC 8628): three `git credential fill` at once on one
/// terminal get one device code and three answers with the same token; where the person may not be asked, or the
/// setting is off, nothing is asked and the login to run is named. `login` typed at a terminal is not refused for
/// git's GIT_TERMINAL_PROMPT=0.
@Suite struct HelperSignInTests {
    static let host = "git.example.test"

    /// The device profile with git set up for `host`, and helper sign-in as `setting`.
    static func gitProfile(helperSignIn setting: String) async throws -> (OAuthServer, HeadlessCLI) {
        let (server, cli) = try await DeviceGrantLoginTests.deviceProfile()
        let setup = try await cli.run(["setup", "git", "--host", host])
        try #require(setup.status == 0, "\(setup.stderrText)")
        let configure = try await cli.run(["configure", "--helper-sign-in", setting])
        try #require(configure.status == 0, "\(configure.stderrText)")
        return (server, cli)
    }

    @Test func threeConcurrentGitFillsOnATerminalGetOneDeviceCodeAndTheSameToken() async throws {
        let (server, cli) = try await Self.gitProfile(helperSignIn: "on")
        try await Self.expectOneSignInForThreeFills(server: server, cli: cli)
    }

    /// The agent answers "sign in required" and never prompts; the helpers sign in themselves, and the agent serves
    /// the session they leave, the same token to all three.
    @Test func withTheAgentRunningTheHelpersSignInAndTheAgentServesTheNewSession() async throws {
        let (server, cli) = try await Self.gitProfile(helperSignIn: "on")
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        try await Self.expectOneSignInForThreeFills(server: server, cli: cli)
        #expect(!agent.log.contains("enter the code"), "the agent asked no one: \(agent.log)")
    }

    /// Three `git credential fill` at once on one terminal: one device code (and its QR code) shown there, approved, and the same
    /// token, the stored session's, in each answer on git's pipe and never on the terminal.
    static func expectOneSignInForThreeFills(server: OAuthServer, cli: HeadlessCLI) async throws {
        let scratch = try TemporaryDirectory(prefix: "authvault-helper-sign-in")
        let fill = "printf 'protocol=https\\nhost=\(Self.host)\\n\\n' | git credential fill"
        let fills =
            (1...3).map { "\(fill) >\(scratch.path)/fill\($0).out 2>\(scratch.path)/fill\($0).err &" }
            .joined(separator: "\n") + "\nwait\necho FILLS-DONE\n"
        // A terminal wide enough for the QR code, which goes there too.
        let script = "stty cols 200\n" + fills
        try script.write(toFile: scratch.appending("fills.sh"), atomically: true, encoding: .utf8)
        // script(1) gives the shell, and so git and the helpers, a terminal of their own at /dev/tty.
        let terminal = try InteractiveProcess(
            "/usr/bin/script", ["-q", "-e", "-c", "/bin/sh \(scratch.appending("fills.sh"))", "/dev/null"],
            environment: cli.environment.merging(["TERM": "dumb", "LANG": "C.UTF-8"]) { $1 })
        var screen = ""
        var code: String?
        while code == nil, let line = terminal.readLine(timeout: 60) {
            screen += line + "\n"
            if let range = line.range(of: "and enter the code:") {
                code = line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let userCode = try #require(code, "no code was shown: \(screen)")
        try await server.approveDevice(
            verificationURI: server.issuer + "/device/", userCode: userCode, as: OAuthServer.poolUser)
        while !screen.contains("FILLS-DONE"), let line = terminal.readLine(timeout: 60) { screen += line + "\n" }
        #expect(terminal.finish() == 0, "\(screen)")
        #expect(screen.components(separatedBy: "and enter the code:").count == 2, "one device code: \(screen)")
        #expect(
            screen.contains(HelperSignInTerminal.waitingLine(profile: "default")),
            "a helper queued behind the sign-in says so: \(screen)")
        #expect(
            screen.components(separatedBy: "scan this code with a phone's camera").count == 2,
            "its QR code on the terminal: \(screen)")
        #expect(try QRScreen.decode(screen).count == 1, "its QR code scans, beside the text: \(screen)")

        let answers = try (1...3).map { index in
            try String(contentsOfFile: scratch.appending("fill\(index).out"), encoding: .utf8)
        }
        let passwords = answers.map { answer in
            answer.split(separator: "\n").first { $0.hasPrefix("password=") }.map(String.init)
        }
        for (index, password) in passwords.enumerated() {
            let errors = (try? String(contentsOfFile: scratch.appending("fill\(index + 1).err"), encoding: .utf8)) ?? ""
            #expect(password != nil, "fill \(index + 1) got no password: \(errors)")
        }
        #expect(Set(passwords.compactMap { $0 }).count == 1, "the same token for all three")
        let record = try #require(try await cli.storedRecord(), "the sign-in stored a session")
        let token = try #require(record["accessToken"] as? String)
        expectSecret("password=\(token)", equals: passwords.first ?? nil)
        #expect(!screen.contains(token), "the token went to git's pipe, not the terminal")
        cli.expectNoSecretLeaks()
    }

    /// The line a queued helper says goes to the terminal it was given, and nowhere without one.
    @Test func theQueuedHelpersLineGoesToTheTerminalOnly() throws {
        #expect(HelperSignInTerminal.waitingNotice(profile: "work", tty: -1) == nil, "no terminal, no line")
        let pipe = Pipe()
        let notice = try #require(
            HelperSignInTerminal.waitingNotice(profile: "work", tty: pipe.fileHandleForWriting.fileDescriptor))
        notice()
        try pipe.fileHandleForWriting.close()
        let said = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said == "authvault: waiting for the sign-in of profile 'work' running in another process…\n")
    }

    /// Every way of saying no one is asked, and the setting off: the helper and `token` on a terminal show no code,
    /// exit 3, and name the login to run (and, when the setting is on, what forbade it).
    @Test func noPromptWhereForbiddenOrNotAskedForAndTheLoginIsNamed() async throws {
        let (_, on) = try await Self.gitProfile(helperSignIn: "on")
        let forbidding: [(arguments: [String], environment: [String: String], by: String)] = [
            (["--non-interactive", "token"], [:], "--non-interactive forbids prompts"),
            (["token"], ["AUTHVAULT_NON_INTERACTIVE": "1"], "AUTHVAULT_NON_INTERACTIVE forbids prompts"),
            (["token"], ["GIT_TERMINAL_PROMPT": "0"], "GIT_TERMINAL_PROMPT=0 forbids prompts"),
            (
                ["kubectl-credential"],
                [
                    "KUBERNETES_EXEC_INFO":
                        #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false,"cluster":{"server":"https://\#(Self.host)"}}}"#
                ], "kubectl (interactive: false) forbids prompts"
            ),
        ]
        for (arguments, environment, by) in forbidding {
            let run = try await on.runOnTerminal(arguments, answers: [], extraEnvironment: environment)
            #expect(run.status == 3 && !run.screen.contains("enter the code"), "\(arguments): \(run.screen)")
            #expect(
                run.screen.contains("authvault login --profile default") && run.screen.contains(by),
                "\(arguments): \(run.screen)")
        }
        let git = try await BoundedProcess.run(
            "/usr/bin/git", ["credential", "fill"], stdin: Data("protocol=https\nhost=\(Self.host)\n\n".utf8),
            environment: on.environment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 })
        #expect(git.status != 0 && !git.stdoutText.contains("password="), "\(git.stderrText)")
        #expect(git.stderrText.contains("GIT_TERMINAL_PROMPT=0 forbids prompts"), "\(git.stderrText)")

        let (_, off) = try await Self.gitProfile(helperSignIn: "off")
        let run = try await off.runOnTerminal(["token"], answers: [])
        #expect(run.status == 3 && !run.screen.contains("enter the code"), "\(run.screen)")
        #expect(run.screen.contains("authvault login --profile default"), "\(run.screen)")
    }

    /// The setting is on or off (off by default), shown by `profiles list --json`, and completed; `login --force`
    /// is in login's spec, which help, the man page and the completions are made from.
    @Test func theSettingIsOnOrOffListedAndCompleted() async throws {
        let (_, cli) = try await DeviceGrantLoginTests.deviceProfile()
        func listed() async throws -> Bool? {
            let list = try await cli.run(["profiles", "list", "--json"])
            let object = try JSONSerialization.jsonObject(with: list.stdout) as? [String: Any]
            let profiles = object?["profiles"] as? [[String: Any]]
            return profiles?.first?["helperSignIn"] as? Bool
        }
        #expect(try await listed() == false)
        let wrong = try await cli.run(["configure", "--helper-sign-in", "maybe"])
        #expect(wrong.status == 2 && wrong.stderrText.contains("on or off"), "\(wrong.stderrText)")
        #expect(try await cli.run(["configure", "--helper-sign-in", "on"]).status == 0)
        #expect(try await listed() == true)
        #expect(try await cli.run(["configure", "--helper-sign-in", ""]).status == 0)
        #expect(try await listed() == false)
        #expect(ConfigureCommand.helperSignIn.spec.completion == .words(["on", "off"]))
        #expect(LoginCommand.spec.options.contains { $0.long == "force" })
        let help = try await cli.run(["login", "--help"])
        #expect(help.stdoutText.contains("--force"), "\(help.stdoutText)")
    }

    /// git's variable is for git and its helpers: `login` typed at a terminal still signs in (here up to its code).
    @Test func loginAtATerminalIgnoresGitsPromptVariable() async throws {
        let (_, cli) = try await DeviceGrantLoginTests.deviceProfile()
        let run = try await cli.runOnTerminal(
            ["login"], answers: [("and enter the code:", "\u{03}")], extraEnvironment: ["GIT_TERMINAL_PROMPT": "0"])
        #expect(run.screen.contains("and enter the code:") && !run.screen.contains("No terminal"), "\(run.screen)")
        #expect(run.status == 130, "\(run.screen)")
    }
}
