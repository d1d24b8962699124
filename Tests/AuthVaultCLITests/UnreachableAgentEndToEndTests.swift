import Foundation
import TestSupport
import Testing

/// A remote shell whose forwarded agent socket is missing (`ssh` without -R, or a forwarding that failed) or stale,
/// in an empty HOME with `AUTHVAULT_AGENT_SOCKET` set: the built `authvault`'s `token`, the git, docker, kubectl and
/// Vault helpers and `aws-credentials` say the agent there could not be reached and how to forward it again (or unset
/// the variable), not "no such profile, create it"; they exit 1 and leave standard output (a tool's protocol) empty.
@Suite struct UnreachableAgentEndToEndTests {
    private static func expectUnreachable(_ output: ProcessOutput, socket: String, reason: String) {
        let said = output.stderrText
        #expect(output.status == 1, "\(said)")
        #expect(output.stdoutText.isEmpty)
        #expect(said.contains("The authvault agent at \(socket) could not be reached (\(reason))"), "\(said)")
        #expect(said.contains("'ssh -R \(socket):SOCKET HOST'"), "\(said)")
        #expect(said.contains("'StreamLocalBindUnlink yes'"), "\(said)")
        #expect(said.contains("unset AUTHVAULT_AGENT_SOCKET"), "\(said)")
        #expect(!said.contains("No profile named"), "\(said)")
    }

    @Test func aMissingForwardedSocketIsSaidByTokenTheHelpersAndAWS() async throws {
        let cli = try HeadlessCLI()
        let socket = cli.root + "/run/authvault.sock"
        let remote = ["AUTHVAULT_AGENT_SOCKET": socket]
        Self.expectUnreachable(
            try await cli.run(["token"], extraEnvironment: remote), socket: socket, reason: "no socket there")
        let git = try await cli.run(
            ["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\n\n", extraEnvironment: remote)
        Self.expectUnreachable(git, socket: socket, reason: "no socket there")
        let docker = try await cli.run(
            ["docker-credential", "get"], stdin: "https://registry.example.com\n", extraEnvironment: remote)
        Self.expectUnreachable(docker, socket: socket, reason: "no socket there")
        let vault = try await cli.run(
            ["vault-token-helper", "get"],
            extraEnvironment: remote.merging(["VAULT_ADDR": "https://vault.example.com:8200"]) { $1 })
        Self.expectUnreachable(vault, socket: socket, reason: "no socket there")
        Self.expectUnreachable(
            try await cli.run(["aws-credentials"], extraEnvironment: remote), socket: socket, reason: "no socket there")
        #expect(!FileManager.default.fileExists(atPath: cli.configPath), "nothing written on the remote side")

        // A socket left by an earlier connection, nobody listening on it.
        try FileManager.default.createDirectory(atPath: cli.root + "/run", withIntermediateDirectories: false)
        let bound = try await BoundedProcess.run(
            "/usr/bin/python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", socket])
        #expect(bound.status == 0, "\(bound.stderrText)")
        Self.expectUnreachable(
            try await cli.run(["token"], extraEnvironment: remote), socket: socket,
            reason: "nothing listens on the socket")

        // Without the variable, the missing profile is what is said, as before.
        let local = try await cli.run(["token"])
        #expect(local.status == 1)
        #expect(local.stderrText.contains("No profile named 'default'"), "\(local.stderrText)")
    }

    /// kubectl 1.20 with the example kubeconfig (`--profile`, provideClusterInfo) runs `authvault kubectl-credential`
    /// and shows the user its standard error: the same words, missing socket or stale, reach them through kubectl. The
    /// plugin's standard output, which kubectl decodes as an ExecCredential, stays empty.
    @Test func kubectlShowsTheUnreachableAgent() async throws {
        try await ExampleKubeconfig.requireKubectl()
        let cli = try HeadlessCLI()
        let socket = cli.root + "/run/authvault.sock"
        let remote = ["AUTHVAULT_AGENT_SOCKET": socket]
        let server = "https://127.0.0.1:6443"
        // The plugin alone, as kubectl runs it: the request in KUBERNETES_EXEC_INFO names the cluster's server.
        let info =
            #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false,"#
            + #""cluster":{"server":"\#(server)"}}}"#
        let plugin = try await cli.run(
            ["kubectl-credential", "--profile", HeadlessCLI.profile],
            extraEnvironment: remote.merging(["KUBERNETES_EXEC_INFO": info]) { $1 })
        Self.expectUnreachable(plugin, socket: socket, reason: "no socket there")

        let tls = try TLSFixture()
        let kubeconfig = cli.root + "/kubeconfig.yaml"
        try ExampleKubeconfig.write(
            to: kubeconfig, server: server, caCertificatePath: tls.caCertificatePath, profile: HeadlessCLI.profile)
        let links = try CommandLinks(["authvault"], to: cli.authvault, in: cli.root)
        let environment = cli.environment.merging(remote) { $1 }.merging([
            "PATH": links.searchPath(before: cli.environment["PATH"]), "KUBECONFIG": kubeconfig,
        ]) { $1 }
        func kubectl() async throws -> ProcessOutput {
            try await BoundedProcess.run(
                ExampleKubeconfig.kubectlPath, ["get", "namespaces", "-o", "name", "--request-timeout=30s"],
                environment: environment, timeout: 60)
        }
        func expectShown(_ output: ProcessOutput, reason: String) {
            let said = output.stderrText
            #expect(output.status == 1, "\(said)")
            #expect(output.stdoutText.isEmpty)
            #expect(said.contains("getting credentials: exec: executable authvault failed with exit code 1"), "\(said)")
            #expect(!said.contains("decoding stdout"), "kubectl found nothing to decode: \(said)")
            #expect(said.contains("The authvault agent at \(socket) could not be reached (\(reason))"), "\(said)")
            #expect(said.contains("'ssh -R \(socket):SOCKET HOST'"), "\(said)")
            #expect(said.contains("unset AUTHVAULT_AGENT_SOCKET"), "\(said)")
        }
        expectShown(try await kubectl(), reason: "no socket there")

        try FileManager.default.createDirectory(atPath: cli.root + "/run", withIntermediateDirectories: false)
        let bound = try await BoundedProcess.run(
            "/usr/bin/python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", socket])
        #expect(bound.status == 0, "\(bound.stderrText)")
        expectShown(try await kubectl(), reason: "nothing listens on the socket")
        #expect(!FileManager.default.fileExists(atPath: cli.configPath), "nothing written on the remote side")
    }

    /// Through a real sshd, connected without -R: the remote `token` says what to do.
    @Test(.enabled(if: OpenSSHServer.unavailableReason == nil, "needs Debian's openssh-server and openssh-client"))
    func aSessionOpenedWithoutTheForwardingIsTold() async throws {
        let server = try OpenSSHServer()
        let remote = try TemporaryDirectory(prefix: "remote")
        let home = remote.appending("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let socket = remote.appending("authvault.sock")
        let line = OpenSSHServer.shellLine([
            "env", "HOME=\(home)", "AUTHVAULT_AGENT_SOCKET=\(socket)", BuiltProducts.executable("authvault"), "token",
        ])
        let output = try await server.run([], command: line)
        Self.expectUnreachable(output, socket: socket, reason: "no socket there")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).isEmpty, "the remote HOME stays empty")
    }
}
