import Foundation
import TestSupport
import Testing

/// The token commands answer through the agent on the caller's thread, before any actor is awaited: the same bytes
/// as from the vault for every protocol, and the vault's answer when no agent runs or the agent refuses.
extension HelperProtocolTests {
    /// One helper call as its tool makes it.
    struct ToolCall: Sendable, CustomStringConvertible {
        let arguments: [String]
        var stdin: String? = nil
        var environment: [String: String] = [:]
        var description: String { arguments.joined(separator: " ") }
    }

    static let kubectlInfo =
        #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false,"#
        + #""cluster":{"server":"https://git.example.com:6443"}}}"#
    static let toolCalls = [
        ToolCall(arguments: ["token"]),
        ToolCall(arguments: ["token", "--format", "header"]),
        ToolCall(arguments: ["token", "--format", "json"]),
        ToolCall(arguments: ["token", "--id", "--format", "json"]),
        ToolCall(
            arguments: ["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\npath=team/repo.git\n\n"),
        ToolCall(
            arguments: ["git-credential", "get"],
            stdin: "capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n"),
        ToolCall(arguments: ["docker-credential", "get"], stdin: "https://registry.example.com:5000\n"),
        ToolCall(arguments: ["kubectl-credential"], environment: ["KUBERNETES_EXEC_INFO": kubectlInfo]),
        ToolCall(
            arguments: ["kubectl-credential", "--token", "access"],
            environment: ["KUBERNETES_EXEC_INFO": kubectlInfo.replacingOccurrences(of: "v1beta1", with: "v1")]),
        ToolCall(
            arguments: ["vault-token-helper", "get"], environment: ["VAULT_ADDR": "https://git.example.com:8200"]),
    ]

    /// Every call's standard output, each checked to succeed quietly.
    func answers(_ cli: HeadlessCLI, environment: [String: String]) throws -> [String] {
        try Self.toolCalls.map { call in
            let output = try run(
                cli, call.arguments, stdin: call.stdin, environment: environment.merging(call.environment) { $1 })
            #expect(output.status == 0, "\(call): \(output.stderrText)")
            #expect(output.stderr.isEmpty, "\(call): \(output.stderrText)")
            return output.stdoutText
        }
    }

    @Test func throughTheAgentEveryHelperAnswersWithTheVaultsBytes() async throws {
        let session = try await signedIn()
        let cli = session.cli
        let direct = try answers(cli, environment: [:])
        expectSecret(session.accessToken + "\n", equals: direct[0], "the bare token")

        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        // Without the passphrase the vault cannot be read here: every answer comes from the agent.
        let throughAgent = try answers(cli, environment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        for (call, (viaAgent, fromVault)) in zip(Self.toolCalls, zip(throughAgent, direct)) {
            expectSecret(fromVault, equals: viaAgent, "\(call): the agent's answer differs from the vault's")
        }
    }

    @Test func withoutAnAgentOrWhenItRefusesTheVaultAnswers() async throws {
        let session = try await signedIn()
        let cli = session.cli
        let direct = try answers(cli, environment: [:])
        #expect(try answers(cli, environment: ["AUTHVAULT_AGENT_SOCKET": cli.root + "/no-agent.sock"]) == direct)

        // An agent on an empty configuration knows no profile: it refuses (unknownProfile), and the helpers answer
        // from the vault instead.
        let emptyConfig = cli.root + "/empty-config.json"
        try Data(#"{"version":1,"profiles":{}}"#.utf8).write(to: URL(fileURLWithPath: emptyConfig))
        let socket = cli.root + "/refusing-agent.sock"
        let agent = try AgentProcess.start(
            cli.authvault, ["agent", "--socket", socket],
            environment: cli.environment.merging(["AUTHVAULT_CONFIG": emptyConfig]) { $1 },
            log: cli.root + "/refusing-agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(socket)
        #expect(try answers(cli, environment: ["AUTHVAULT_AGENT_SOCKET": socket]) == direct)
    }

    /// libcrypto is opened on first use: neither `--version` nor a token through the agent maps it, while reading
    /// the file vault does (which shows that the loader's trace sees it).
    @Test func libcryptoIsLoadedOnlyWhenCryptographyRuns() async throws {
        let session = try await signedIn()
        let cli = session.cli
        let trace = ["LD_DEBUG": "libs"]
        #expect(!(try run(cli, ["--version"], environment: trace).stderrText.contains("libcrypto")))
        #expect(try run(cli, ["token"], environment: trace).stderrText.contains("libcrypto"))

        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        let throughAgent = try run(cli, ["token"], environment: trace)
        expectSecret(session.accessToken + "\n", equals: throughAgent.stdoutText)
        #expect(!throughAgent.stderrText.contains("libcrypto"))
    }

    /// The hot path stays on the main thread: a token through the agent starts no thread (a hop to Swift's global
    /// executor would start its pool, four threads a call). Counted by Debian's strace.
    @Test(.enabled(if: !SanitizerOptions.areSet, "the sanitizers' runtimes start threads of their own"))
    func aTokenThroughTheAgentStartsNoThread() async throws {
        let session = try await signedIn()
        let cli = session.cli
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        let trace = cli.root + "/clone.trace"
        func threadsStarted(_ arguments: [String], environment: [String: String] = [:]) throws -> Int {
            let traced = try run(
                cli, ["-f", "-qq", "-e", "trace=clone,clone3", "-o", trace, cli.authvault] + arguments,
                environment: environment, executable: "/usr/bin/strace")
            #expect(traced.status == 0, "\(traced.stderrText)")
            return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").count {
                $0.contains("clone")
            }
        }
        #expect(
            try threadsStarted(["token"], environment: ["AUTHVAULT_VAULT_PASSPHRASE": ""]) == 0, "through the agent")
        // The trace sees threads where there are some: the file vault's key derivation runs on worker threads.
        #expect(try threadsStarted(["token"], environment: ["AUTHVAULT_AGENT_SOCKET": cli.root + "/no-agent.sock"]) > 0)
    }
}
