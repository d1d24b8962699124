import Foundation
import TestSupport
import Testing

/// The sign-in remedy of a profile of a real OpenID provider (django-oauth-toolkit in its default configuration, no
/// user pool) is the command that signs it in where it was said, and pasted into a terminal it does: on a headless
/// machine, a browser-only profile's names --paste (a plain login would refuse: no browser to open), and a profile
/// with the device grant's is a plain login, which takes the device grant there.
@Suite struct SignInRemedyRouteTests {
    /// The `login` a remedy on standard error names, as arguments: "Run 'authvault login ...' in a terminal."
    static func remedyArguments(_ stderr: String) throws -> [String] {
        let start = try #require(stderr.range(of: "Run 'authvault "), "no sign-in remedy: \(stderr)")
        let end = try #require(stderr.range(of: "' in a terminal.", range: start.upperBound..<stderr.endIndex))
        return stderr[start.upperBound..<end.lowerBound].split(separator: " ").map(String.init)
    }

    @Test func aBrowserOnlyProfileOnAHeadlessMachineNamesThePastedSignInWhichSignsItIn() async throws {
        let profile = try await BrowserProfile.make(server: .defaultConfiguration)
        let cli = profile.cli
        let token = try await cli.run(["token"])
        #expect(
            token.status == 3
                && token.stderrText.hasSuffix("Run 'authvault login --profile default --paste' in a terminal.\n"),
            "\(token.stderrText)")
        let onDesktop = try await cli.run(["token"], extraEnvironment: ["DISPLAY": ":0"])
        #expect(
            onDesktop.stderrText.hasSuffix("Run 'authvault login --profile default' in a terminal.\n"),
            "\(onDesktop.stderrText)")

        // The plain login refuses here; the remedy's, typed on a terminal, signs the profile in.
        let plain = try await cli.runOnTerminal(["login"], answers: [])
        #expect(plain.status == 2 && plain.screen.contains("No desktop session here"), "\(plain.screen)")
        let remedy = try Self.remedyArguments(token.stderrText)
        let user = OAuthServer.poolUser
        let output = try await OffPool.run {
            try ProcessRunner.run(
                PeerPython.path,
                [
                    ScriptServer.scriptPath("oauth_server/pty_paste.py"), profile.scratch.appending("cookies.txt"),
                    user.username, user.password, "--", cli.authvault,
                ] + remedy,
                environment: cli.environment.merging(["TERM": "dumb"]) { $1 }, timeout: 120)
        }
        let result = try #require(
            (try? JSONSerialization.jsonObject(with: output.stdout)) as? [String: Any], "\(output.stderrText)")
        let screen = result["screen"] as? String ?? ""
        #expect(result["pasted"] as? Bool == true && result["status"] as? Int == 0, "\(screen)")
        let signedIn = try await cli.run(["token"])
        #expect(signedIn.status == 0 && !signedIn.stdoutText.isEmpty, "\(signedIn.stderrText)")
        cli.expectNoSecretLeaks()
    }

    @Test func aDeviceGrantProfileOnAHeadlessMachineNamesAPlainLoginWhichUsesACode() async throws {
        let (_, cli) = try await DeviceGrantLoginTests.deviceProfile()
        let gitHost = ["configure", "--helper-host", "git.example.com"]
        #expect(try await cli.run(gitHost).status == 0)
        let token = try await cli.run(["token"])
        let git = try await cli.run(["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\n\n")
        for (command, output) in [("token", token), ("git-credential", git)] {
            #expect(
                output.status == 3
                    && output.stderrText.hasSuffix("Run 'authvault login --profile default' in a terminal.\n"),
                "\(command): \(output.stderrText)")
        }
        let remedy = try Self.remedyArguments(token.stderrText)
        let run = try await cli.runOnTerminal(remedy, answers: [("and enter the code:", "\u{03}")])
        #expect(run.screen.contains("No browser can be opened here, so this sign-in uses a code"), "\(run.screen)")
        #expect(run.status == 130, "\(run.screen)")
    }

    /// A client with no configuration of its own (a remote shell, a container, here a process with an empty
    /// configuration directory and the agent's socket named) relays the agent's sign-in answer: the profile the agent
    /// chose, and how it signs in where the agent runs (no browser to open there, no device grant: --paste).
    @Test func aClientWithoutAConfigurationNamesHowTheAgentsProfileSignsIn() async throws {
        let server = try await OAuthServer.sharedDefault()
        let cli = try HeadlessCLI()
        let configure = try await cli.run([
            "--profile", "work", "configure", "--client-id", OAuthServer.publicClient.clientId, "--oidc-discovery",
            server.discoveryURL, "--redirect-uri", OAuthServer.redirectURI, "--vault", "file",
        ])
        try #require(configure.status == 0, "\(configure.stderrText)")
        #expect(try await cli.run(["profiles", "use", "work"]).status == 0)
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        try await agent.waitForSocket(socket)
        let elsewhere = try TemporaryDirectory(prefix: "no-configuration")
        let token = try await cli.run(
            ["token"], extraEnvironment: ["XDG_CONFIG_HOME": elsewhere.path, "AUTHVAULT_AGENT_SOCKET": socket])
        #expect(
            token.status == 3
                && token.stderrText.hasSuffix("Run 'authvault login --profile work --paste' in a terminal.\n"),
            "\(token.stderrText); agent: \(agent.log)")
    }
}
