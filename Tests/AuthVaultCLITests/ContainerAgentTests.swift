import Foundation
import TestSupport
import Testing

/// `authvault agent --also-serve-uid UID:PROFILE` as Examples/devcontainer/ uses it: a process of another user (the
/// container's) with no configuration and no vault of its own gets the listed profile's token from the agent through
/// the socket, told whose agent it is by AUTHVAULT_AGENT_UID, and nothing else; without the option that user is
/// refused.
@Suite struct ContainerAgentTests {
    static let canSwitchUser = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    @Test(.enabled(if: canSwitchUser, "needs root and setpriv to run a client as another user"))
    func anotherUsersProcessGetsTokensOnlyWhenTheAgentServesIt() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let token = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        // The container's side: a copy of the binary its user can run, and a home of its own.
        let container = try TemporaryDirectory(prefix: "container")
        chmod(container.path, 0o755)
        let binary = container.appending("authvault")
        try FileManager.default.copyItem(atPath: cli.authvault, toPath: binary)
        let home = container.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        #expect(chown(home, 65534, 65534) == 0)
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let mounted = container.appending("agent.sock")
        let containerEnvironment = [
            "HOME": home, "PATH": "/usr/bin:/bin", "AUTHVAULT_AGENT_SOCKET": mounted,
            "AUTHVAULT_AGENT_UID": String(geteuid()),
        ]
        let asContainerUser = { (arguments: [String]) async throws -> ProcessOutput in
            try await BoundedProcess.run(
                "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments,
                environment: containerEnvironment, timeout: 25)
        }

        for served in [false, true] {
            let arguments = served ? ["agent", "--also-serve-uid", "65534:default"] : ["agent"]
            let agent = try AgentProcess.start(
                cli.authvault, arguments, environment: cli.environment, log: cli.root + "/agent-\(served).log")
            defer { agent.kill() }
            try await agent.waitForSocket(socket)
            // What a bind mount of the socket gives the container: the agent's socket at a path it can reach (a hard
            // link to the same socket), whose own mode then decides; the agent's directory stays 0700.
            unlink(mounted)
            #expect(link(socket, mounted) == 0)
            let output = try await asContainerUser(["token"])
            if served {
                #expect(output.status == 0, "\(output.stderrText); agent: \(agent.log)")
                expectSecret(token + "\n", equals: output.stdoutText)
            } else {
                #expect(output.status != 0)
                expectNoSecrets(in: output.stdoutText, [token], "stdout")
                expectNoSecrets(in: output.stderrText, [token], "stderr")
            }
            #expect(try await agent.terminate(timeout: 5) == 0)
        }
        cli.expectNoSecretLeaks()
    }
}

extension ContainerAgentTests {
    /// The other user gets the profiles listed for it only: one configured but not listed and one that does not
    /// exist get the same "not served", with no path or profile name in it, while the owner is served as before.
    /// A bare uid, which would say nothing of the profiles, or a name no profile can have, is refused at start with the
    /// syntax.
    @Test(.enabled(if: canSwitchUser, "needs root and setpriv to run a client as another user"))
    func anotherUserGetsOnlyTheProfilesListedForIt() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        for refused in ["65534", "65534:", "65534:work,", "65534:$(id)", "x:work"] {
            let bare = try await cli.run(["agent", "--also-serve-uid", refused])
            #expect(bare.status == 2, "\(refused): \(bare.stderrText)")
            #expect(bare.stderrText.contains("UID:PROFILE[,PROFILE...]"), "\(refused): \(bare.stderrText)")
        }
        let secondProfile = try await cli.run([
            "configure", "--profile", "second", "--user-pool-id", profile.pool.poolId,
            "--client-id", profile.pool.clientId, "--endpoint", profile.pool.moto.endpoint,
        ])
        #expect(secondProfile.status == 0, "\(secondProfile.stderrText)")

        let container = try TemporaryDirectory(prefix: "container")
        chmod(container.path, 0o755)
        let binary = container.appending("authvault")
        try FileManager.default.copyItem(atPath: cli.authvault, toPath: binary)
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let mounted = container.appending("agent.sock")
        let agent = try AgentProcess.start(
            cli.authvault, ["agent", "--also-serve-uid", "65534:default"], environment: cli.environment,
            log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(socket)
        #expect(link(socket, mounted) == 0)
        let asContainerUser = { (profileName: String) async throws -> ProcessOutput in
            try await BoundedProcess.run(
                "/usr/bin/setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", binary, "token",
                    "--profile", profileName,
                ],
                environment: [
                    "HOME": container.path, "PATH": "/usr/bin:/bin", "AUTHVAULT_AGENT_SOCKET": mounted,
                    "AUTHVAULT_AGENT_UID": String(geteuid()),
                ], timeout: 25)
        }

        let token = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        expectSecret(
            token + "\n", equals: try await asContainerUser("default").stdoutText, "the listed profile is served")
        let unlisted = try await asContainerUser("second")
        let unknown = try await asContainerUser("ghost")
        #expect(unlisted.status == 1 && unknown.status == 1)
        #expect(unlisted.stdout.isEmpty && unknown.stdout.isEmpty)
        #expect(
            unlisted.stderrText.contains("The agent does not serve this profile to this user."),
            "\(unlisted.stderrText)")
        #expect(unlisted.stderrText == unknown.stderrText, "one answer for both")
        for told in [unlisted.stderrText, unknown.stderrText] {
            #expect(
                !told.contains(cli.configPath) && !told.contains("config.json") && !told.contains("default"), "\(told)")
        }

        // The owner is served as before, and hears in full why a profile cannot be served.
        let owner = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        expectSecret(token + "\n", equals: owner.stdoutText)
        let ownerSecond = try await cli.run(
            ["token", "--profile", "second"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(ownerSecond.status == 3, "not signed in: \(ownerSecond.stderrText)")
        #expect(try await agent.terminate(timeout: 5) == 0)
        cli.expectNoSecretLeaks()
    }
}

extension ContainerAgentTests {
    /// Inside a container, `vault lock` (and a sign-in, which unlocks a running agent first) acts on the container
    /// user's own vault and leaves the host's agent, another user's with another vault, alone: it used to fail on
    /// that agent's uid and refuse the command.
    @Test(.enabled(if: canSwitchUser, "needs root and setpriv to run an agent stand-in as another user"))
    func theContainersVaultCommandsLeaveTheHostsAgentAlone() async throws {
        let cli = try HeadlessCLI()
        let directory = try TemporaryDirectory(prefix: "host-agent")
        chmod(directory.path, 0o777)
        let socket = directory.appending("agent.sock")
        // The host's agent, as far as the container sees it: a socket of uid 65534 that answers every line "ok".
        let standIn = try InteractiveProcess(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                """
                import os, socket, sys
                s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o666); s.listen(8)
                print("ready", flush=True)
                while True:
                    c, _ = s.accept(); f = c.makefile("rwb"); f.readline(); f.write(b'{"v":1,"ok":true}\\n'); f.flush(); c.close()
                """, socket,
            ])
        defer { kill(standIn.processIdentifier, SIGKILL) }
        #expect(try await OffPool.run { standIn.readLine() } == "ready")

        let lock = try await cli.run(
            ["vault", "lock"], extraEnvironment: ["AUTHVAULT_AGENT_SOCKET": socket, "AUTHVAULT_AGENT_UID": "65534"])
        #expect(lock.status == 0, "\(lock.stderrText)")
        #expect(lock.stderrText == "Locked the encrypted file vault.\n", "not in the host's agent")
    }
}
