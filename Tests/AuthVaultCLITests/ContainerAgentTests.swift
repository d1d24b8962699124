import Foundation
import Testing
import TestSupport

/// `authvault agent --also-serve-uid` as Examples/devcontainer/ uses it: a process of another user (the container's)
/// with no configuration and no vault of its own gets the profile's token from the agent through the socket, told
/// whose agent it is by AUTHVAULT_AGENT_UID; without the option that user is refused.
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
        let containerEnvironment = ["HOME": home, "PATH": "/usr/bin:/bin", "AUTHVAULT_AGENT_SOCKET": mounted,
                                    "AUTHVAULT_AGENT_UID": String(geteuid())]
        let asContainerUser = { () async throws -> ProcessOutput in
            try await BoundedProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "token"],
                                         environment: containerEnvironment, timeout: 25)
        }

        for served in [false, true] {
            let arguments = served ? ["agent", "--also-serve-uid", "65534"] : ["agent"]
            let agent = try AgentProcess.start(cli.authvault, arguments, environment: cli.environment, log: cli.root + "/agent-\(served).log")
            defer { agent.kill() }
            try await agent.waitForSocket(socket)
            // What a bind mount of the socket gives the container: the agent's socket at a path it can reach (a hard
            // link to the same socket), whose own mode then decides; the agent's directory stays 0700.
            unlink(mounted)
            #expect(link(socket, mounted) == 0)
            let output = try await asContainerUser()
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
