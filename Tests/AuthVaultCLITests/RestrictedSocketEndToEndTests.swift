import Foundation
import TestSupport
import Testing

/// `authvault agent --also-serve-socket PATH:PROFILE` through the built binary, two profiles signed in against moto:
/// the socket at PATH serves the listed profile's token and AWS credentials to a client of the same uid that has no
/// vault of its own (a same-uid container), and answers everything else with one fixed refusal, byte for byte; the
/// main socket is unchanged; a client of the same uid that can read the vault takes its direct path for a profile
/// the socket does not serve; another uid is refused.
@Suite struct RestrictedSocketEndToEndTests {
    @Test func theRestrictedSocketServesItsProfileAndNothingElse() async throws {
        let fixture = try await AWSCredentialsEndToEndTests.Fixture.make()
        let cli = fixture.cli
        try await fixture.signInSecondProfile()

        let container = try TemporaryDirectory(prefix: "container")
        let restricted = container.appending("run/agent.sock")
        let main = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let agent = try AgentProcess.start(
            cli.authvault, ["agent", "--also-serve-socket", "\(restricted):default"],
            environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(main)
        try await agent.waitForSocket(restricted)

        // The owner, through the main socket, without the passphrase: every profile, as before.
        let owner = cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let tokenA = try await BoundedProcess.run(cli.authvault, ["token"], environment: owner, timeout: 30)
        let tokenB = try await BoundedProcess.run(
            cli.authvault, ["token", "--profile", "second"], environment: owner, timeout: 30)
        #expect(
            tokenA.status == 0 && tokenB.status == 0, "\(tokenA.stderrText) \(tokenB.stderrText); agent: \(agent.log)")
        let b = tokenB.stdoutText.trimmingCharacters(in: .newlines)
        let mainStatus = try await RawAgentRequests.send([#"{"v":1,"op":"status"}"#], to: main)
        #expect(mainStatus.first?.contains(#""profile":"second""#) == true, "\(mainStatus)")

        // A same-uid container with no vault and no configuration of its own, the restricted socket mounted.
        let home = container.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let inContainer = ["HOME": home, "PATH": "/usr/bin:/bin", "AUTHVAULT_AGENT_SOCKET": restricted]
        let served = try await BoundedProcess.run(cli.authvault, ["token"], environment: inContainer, timeout: 30)
        #expect(served.status == 0, "\(served.stderrText); agent: \(agent.log)")
        expectSecret(tokenA.stdoutText, equals: served.stdoutText, "the listed profile is served")
        let credentials = try await BoundedProcess.run(
            cli.authvault, ["aws-credentials", "--format", "json"], environment: inContainer, timeout: 30)
        #expect(credentials.status == 0, "\(credentials.stderrText)")
        #expect(AWSCredentialsEndToEndTests.json(credentials.stdoutText)["accessKeyId"] != nil)
        let refused = try await BoundedProcess.run(
            cli.authvault, ["token", "--profile", "second"], environment: inContainer, timeout: 30)
        #expect(refused.status != 0)
        #expect(refused.stdout.isEmpty)
        expectNoSecrets(in: refused.stderrText, [b], "stderr")

        // Everything else on the restricted socket: the same bytes.
        let raw = try await RawAgentRequests.send(
            [
                #"{"v":1,"op":"token","profile":"second"}"#, #"{"v":1,"op":"awsCredentials","profile":"second"}"#,
                #"{"v":1,"op":"token","profile":"ghost"}"#, #"{"v":1,"op":"status"}"#,
                #"{"v":1,"op":"status","profile":"default"}"#,
                #"{"v":1,"op":"lock"}"#, #"{"v":1,"op":"unlock"}"#, #"{"v":1,"op":"version"}"#,
            ], to: restricted)
        #expect(raw == Array(repeating: RawAgentRequests.notServed, count: 8), "\(raw)")
        // The CLI's lock through it locks nothing in the agent: the owner is still served without the passphrase.
        let lock = try await BoundedProcess.run(
            cli.authvault, ["vault", "lock"], environment: inContainer, timeout: 30)
        #expect(lock.status != 0 || !lock.stderrText.contains("agent"), "\(lock.stderrText)")
        expectSecret(
            tokenB.stdoutText,
            equals: try await BoundedProcess.run(
                cli.authvault, ["token", "--profile", "second"],
                environment: owner, timeout: 30
            ).stdoutText)

        // A same-uid client that can read the vault takes its direct path for a profile the socket refuses.
        let direct = try await cli.run(
            ["token", "--profile", "second"], extraEnvironment: ["AUTHVAULT_AGENT_SOCKET": restricted])
        #expect(direct.status == 0, "\(direct.stderrText)")
        expectSecret(tokenB.stdoutText, equals: direct.stdoutText)

        // Another uid gets nothing, even with the way opened to it.
        if ContainerAgentTests.canSwitchUser {
            chmod(container.path, 0o711)
            chmod(container.appending("run"), 0o711)
            chmod(restricted, 0o666)
            let nobody = try await RawAgentRequests.send(
                [#"{"v":1,"op":"token","profile":"default"}"#], to: restricted, asUid: 65534)
            #expect(nobody.isEmpty)
            #expect(agent.log.contains("refused a connection from uid 65534"))
        }
        #expect(try await agent.terminate(timeout: 10) == 0)
        #expect(!FileManager.default.fileExists(atPath: restricted), "removed when the agent stops")
        #expect(!raw.joined().contains(b))
        for output in [served, refused, credentials, lock] {
            expectNoSecrets(in: output.stderrText, [b], "stderr")
        }
        #expect(!agent.log.contains(b))
        cli.expectNoSecretLeaks()
    }

    /// The option's syntax is checked at start, exit 2, the message naming the option; a non-socket file at the
    /// path or a directory others can write is refused and left as it was.
    @Test func badRestrictedSocketsAreRefusedAtStart() async throws {
        let cli = try HeadlessCLI()
        let directory = try TemporaryDirectory(prefix: "restricted")
        for refused in [
            "relative/agent.sock:default", "/tmp/x.sock", "/tmp/x.sock:", "/tmp/x.sock:work,", "/tmp/x.sock:$(id)",
            "/tmp/dir/:work", "/tmp/a\nb.sock:work",
        ] {
            let output = try await cli.run(["agent", "--also-serve-socket", refused])
            #expect(output.status == 2, "\(refused): \(output.stderrText)")
            #expect(
                output.stderrText.contains("--also-serve-socket")
                    && output.stderrText.contains("PATH:PROFILE[,PROFILE...]"),
                "\(refused): \(output.stderrText)")
        }
        let long = try await cli.run([
            "agent", "--also-serve-socket", "/" + String(repeating: "x", count: 120) + ":default",
        ])
        #expect(
            long.status == 2 && long.stderrText.contains("--also-serve-socket")
                && long.stderrText.contains("107 bytes"), "\(long.stderrText)")
        let twice = try await cli.run([
            "agent", "--also-serve-socket", directory.appending("a.sock:x"),
            "--also-serve-socket", directory.appending("a.sock:y"),
        ])
        #expect(twice.status == 2 && twice.stderrText.contains("--also-serve-socket"), "\(twice.stderrText)")
        let mainSocket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let same = try await cli.run(["agent", "--also-serve-socket", mainSocket + ":default"])
        #expect(same.status == 2 && same.stderrText.contains("--also-serve-socket"), "\(same.stderrText)")

        let file = directory.appending("plain")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        let notSocket = try await cli.run(["agent", "--also-serve-socket", file + ":default"])
        #expect(notSocket.status == 1 && notSocket.stderrText.contains("is not a socket"), "\(notSocket.stderrText)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
        let open = directory.appending("open")
        mkdir(open, 0o777)
        chmod(open, 0o777)
        let unsafe = try await cli.run(["agent", "--also-serve-socket", open + "/agent.sock:default"])
        #expect(unsafe.status == 1 && unsafe.stderrText.contains("is open to other users"), "\(unsafe.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: open + "/agent.sock"))
        #expect(!FileManager.default.fileExists(atPath: mainSocket), "the main socket went with the failed start")
    }

    /// With the main socket passed by systemd (socket activation), the agent still binds its restricted socket,
    /// serves on it, and removes it when it stops, leaving the passed socket to the manager.
    @Test func theRestrictedSocketWorksBesideAnActivatedMainSocket() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let main = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let container = try TemporaryDirectory(prefix: "container")
        let restricted = container.appending("run/agent.sock")
        let launcher = try SocketActivation.start(
            socketPath: main, command: [cli.authvault, "agent", "--also-serve-socket", restricted + ":default"],
            environment: cli.environment, log: cli.root + "/agent.log")
        defer { launcher.kill() }
        let started = try await launcher.waitForLine("started ")
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: restricted) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let home = container.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let served = try await BoundedProcess.run(
            cli.authvault, ["token"],
            environment: [
                "HOME": home, "PATH": "/usr/bin:/bin", "AUTHVAULT_AGENT_SOCKET": restricted,
            ], timeout: 30)
        #expect(served.status == 0, "\(served.stderrText); agent: \(launcher.log)")
        expectSecret(
            try await cli.storedRecord()?["accessToken"] as? String,
            equals: served.stdoutText.trimmingCharacters(in: .newlines))
        #expect(
            try await RawAgentRequests.send([#"{"v":1,"op":"status"}"#], to: restricted) == [RawAgentRequests.notServed]
        )

        let pid = try #require(Int32(started.dropFirst("started ".count)))
        try #require(kill(pid, SIGTERM) == 0)
        #expect(try await launcher.waitForLine("exited ") == "exited \(pid) 0")
        #expect(FileManager.default.fileExists(atPath: main), "the passed socket is the manager's")
        #expect(!FileManager.default.fileExists(atPath: restricted), "the agent's own socket goes with it")
        cli.expectNoSecretLeaks()
    }

    /// Examples/devcontainer mounts the directory of the restricted socket its README starts the agent with, never
    /// the main socket, and needs no AUTHVAULT_AGENT_UID for a container of the user's own uid.
    @Test func theDevcontainerExampleMountsTheRestrictedSocket() throws {
        let json = try PackageFiles.text("Examples/devcontainer/devcontainer.json")
        let readme = try PackageFiles.text("Examples/devcontainer/README.md")
        let config = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let mounts = try #require(config["mounts"] as? [String])
        #expect(mounts == ["source=${localEnv:XDG_RUNTIME_DIR}/authvault-devcontainer,target=/run/authvault,type=bind"])
        #expect(!json.contains("XDG_RUNTIME_DIR}/authvault/"), "the main socket means full access")
        let environment = try #require(config["containerEnv"] as? [String: String])
        #expect(environment["AUTHVAULT_AGENT_SOCKET"] == "/run/authvault/agent.sock")
        #expect(environment["AUTHVAULT_AGENT_UID"] == nil)
        #expect(
            readme.contains(
                #"authvault agent --also-serve-socket "$XDG_RUNTIME_DIR/authvault-devcontainer/agent.sock:work""#))
    }
}
