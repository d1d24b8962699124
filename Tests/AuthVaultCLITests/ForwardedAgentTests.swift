import Foundation
import TestSupport
import Testing

/// The agent's restricted socket forwarded to a remote shell by a real OpenSSH (`ssh -R REMOTE:LOCAL`, the server
/// with `StreamLocalBindUnlink yes`), as docs/helpers-and-agent.md gives the recipe. Two profiles are signed in
/// here against moto, "second" alone served on the socket. The remote shell has an empty HOME, no configuration
/// and nothing but `AUTHVAULT_AGENT_SOCKET`: `token`, git (through its real `git credential fill`), the docker,
/// kubectl and Vault helpers and `aws-credentials` get the served profile's token and credentials, refreshed here;
/// the other profile and a host the served profile does not list get nothing; the remote HOME stays empty; no
/// refresh token ever reaches the remote side (its outputs, its environment).
@Suite struct ForwardedAgentTests {
    @Test(.enabled(if: OpenSSHServer.unavailableReason == nil, "needs Debian's openssh-server and openssh-client"))
    func aRemoteShellWithoutAConfigurationGetsTheServedProfileOnly() async throws {
        let fixture = try await AWSCredentialsEndToEndTests.Fixture.make()
        let cli = fixture.cli
        try await fixture.signInSecondProfile([
            "--identity-pool-id", fixture.poolId, "--identity-endpoint", fixture.identity.endpoint,
            "--helper-host", "git.example.com", "--helper-host", "registry.example.com",
            "--helper-host", "k8s.example.com", "--helper-host", "vault.example.com:8200",
        ])
        let listedByDefault = try await cli.run(["configure", "--helper-host", "other.example.com"])
        #expect(listedByDefault.status == 0, "\(listedByDefault.stderrText)")
        var refreshTokens: [String] = []
        for profile in ["default", "second"] {
            refreshTokens.append(try #require(try await cli.storedRecord(profile: profile)?["refreshToken"] as? String))
        }
        let defaultToken = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        let secondToken = try #require(try await cli.storedRecord(profile: "second")?["accessToken"] as? String)

        let local = try TemporaryDirectory(prefix: "forwarded")
        let restricted = local.appending("run/agent.sock")
        let agent = try AgentProcess.start(
            cli.authvault, ["agent", "--also-serve-socket", "\(restricted):second"],
            environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(restricted)

        // The "remote" host: the same machine through sshd, with a HOME and a socket directory of its own.
        let server = try OpenSSHServer()
        let remote = try TemporaryDirectory(prefix: "remote")
        let home = remote.appending("home")
        let runtime = remote.appending("run")
        for directory in [home, runtime] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        }
        let socket = runtime + "/authvault.sock"
        let remoteEnvironment = ["HOME=\(home)", "AUTHVAULT_AGENT_SOCKET=\(socket)"]
        var remoteOutputs: [String] = []
        /// One remote command through a fresh connection and forwarding (a stale socket replaced each time).
        func remotely(_ words: [String], environment: [String] = [], stdin: String? = nil) async throws -> ProcessOutput
        {
            let line = OpenSSHServer.shellLine(["env"] + remoteEnvironment + environment + words)
            let output = try await server.run(["-R", "\(socket):\(restricted)"], command: line, stdin: stdin)
            remoteOutputs += [output.stdoutText, output.stderrText]
            return output
        }

        let unnamed = try await remotely([cli.authvault, "token"])
        #expect(unnamed.status == 0, "\(unnamed.stderrText); sshd: \(server.log); agent: \(agent.log)")
        expectSecret(secondToken + "\n", equals: unnamed.stdoutText, "the served profile, chosen by the agent")
        let named = try await remotely([cli.authvault, "token", "--profile", "second", "--json"])
        #expect(named.status == 0, "\(named.stderrText)")
        let namesTheProfile = named.stdoutText.contains(#""profile":"second""#)
        #expect(namesTheProfile)
        let notServed = try await remotely([cli.authvault, "token", "--profile", "default"])
        #expect(notServed.status != 0 && notServed.stdout.isEmpty)
        #expect(notServed.stderrText.contains("does not serve"), "\(notServed.stderrText)")

        // git itself, its helper the authvault binary, no configuration of git's own either.
        let gitCommand = [
            "/usr/bin/git", "-c", "credential.helper=", "-c", "credential.helper=\(cli.authvault) git-credential",
            "credential", "fill",
        ]
        let gitEnvironment = ["GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0"]
        let fill = try await remotely(
            gitCommand, environment: gitEnvironment,
            stdin: "protocol=https\nhost=git.example.com\npath=acme/tools.git\n\n")
        #expect(fill.status == 0, "\(fill.stderrText)")
        expectSecret(secondToken, equals: AgentEndToEndTests.password(in: fill.stdoutText), "git's password")
        for host in ["other.example.com", "nobody.example.com"] {
            let unlisted = try await remotely(
                gitCommand, environment: gitEnvironment, stdin: "protocol=https\nhost=\(host)\n\n")
            let answered = unlisted.stdoutText.contains("password=")
            #expect(unlisted.status != 0 && !answered, "\(host): \(unlisted.stderrText)")
        }
        let helperUnlisted = try await remotely(
            [cli.authvault, "git-credential", "get"], stdin: "protocol=https\nhost=other.example.com\n\n")
        #expect(helperUnlisted.status == 0 && helperUnlisted.stdout.isEmpty, "\(helperUnlisted.stderrText)")

        // The other helpers, each naming where its token goes.
        let docker = try await remotely([cli.authvault, "docker-credential", "get"], stdin: "registry.example.com\n")
        #expect(docker.status == 0, "\(docker.stderrText)")
        expectSecret(secondToken, in: docker.stdoutText, "docker's secret")
        let kubectlInfo =
            #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"#
            + #""cluster":{"server":"https://k8s.example.com:6443"}}}"#
        let kubectl = try await remotely(
            [cli.authvault, "kubectl-credential", "--token", "access"],
            environment: ["KUBERNETES_EXEC_INFO=\(kubectlInfo)"])
        #expect(kubectl.status == 0, "\(kubectl.stderrText)")
        expectSecret(secondToken, in: kubectl.stdoutText, "kubectl's token")
        let vault = try await remotely(
            [cli.authvault, "vault-token-helper", "get"], environment: ["VAULT_ADDR=https://vault.example.com:8200"])
        #expect(vault.status == 0, "\(vault.stderrText)")
        expectSecret(secondToken, equals: vault.stdoutText, "Vault's token")
        let vaultUnlisted = try await remotely(
            [cli.authvault, "vault-token-helper", "get"], environment: ["VAULT_ADDR=https://other.example.com"])
        #expect(vaultUnlisted.status != 0 && vaultUnlisted.stdout.isEmpty)
        #expect(vaultUnlisted.stderrText.contains("where the agent runs"), "\(vaultUnlisted.stderrText)")
        let credentials = try await remotely([cli.authvault, "aws-credentials", "--format", "json"])
        #expect(credentials.status == 0, "\(credentials.stderrText)")
        #expect(AWSCredentialsEndToEndTests.json(credentials.stdoutText)["accessKeyId"] != nil)

        // What the remote side saw: its environment, its forwarded socket (0600 by sshd's StreamLocalBindMask), and
        // its HOME, where nothing was made.
        let seen = try await remotely([
            "sh", "-c", #"env; stat -c %a "$AUTHVAULT_AGENT_SOCKET"; find "$HOME" -mindepth 1"#,
        ])
        #expect(seen.status == 0, "\(seen.stderrText)")
        let lastLine = seen.stdoutText.split(separator: "\n").last
        #expect(lastLine == "600", "the socket's mode, then no file in HOME")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime) == ["authvault.sock"])
        let everything = remoteOutputs.joined(separator: "\n")
        expectNoSecrets(in: everything, refreshTokens, "the remote side")
        expectNoSecrets(in: everything, [defaultToken], "the remote side (the profile not served)")
        #expect(!agent.log.contains(secondToken))
        #expect(try await agent.terminate(timeout: 10) == 0)
        cli.expectNoSecretLeaks()
    }
}
