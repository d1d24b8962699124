import Foundation
import TestSupport
import Testing

/// `authvault agent` as a user runs it, and `authvault token` going through it.
@Suite struct AgentCommandTests {
    /// A supervisor (systemd, a test) may stop the agent the moment its socket appears: the stop is clean (exit 0,
    /// socket gone), never the default action of the signal. It was lost about one time in ten when the handler
    /// came after the socket.
    @Test func aStopRightAfterTheSocketAppearsIsClean() async throws {
        let cli = try HeadlessCLI()
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        for round in 0..<15 {
            let agent = try AgentProcess.start(
                cli.authvault, environment: cli.environment, log: cli.root + "/agent-\(round).log")
            defer { agent.kill() }
            try await agent.waitForSocket(socket)
            #expect(try await agent.terminate(timeout: 5) == 0, "round \(round): \(agent.log)")
            #expect(!FileManager.default.fileExists(atPath: socket))
        }
    }

    @Test func tokenGoesThroughTheAgentWhileItRunsAndDirectOtherwise() async throws {
        let pool = try await CognitoPool.make()
        try await pool.createUser("alice", password: "Correct-Horse-9!")
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        #expect(try await cli.login("alice", lines: ["Correct-Horse-9!"]).status == 0)
        let stored = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"

        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(socket)
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // The agent holds the unlocked vault: a process that could not unlock it still gets the token.
        let wrongPassphrase = cli.environment.merging(["AUTHVAULT_VAULT_PASSPHRASE": "not the passphrase"]) { $1 }
        let viaAgent = try ProcessRunner.run(cli.authvault, ["token"], environment: wrongPassphrase)
        #expect(viaAgent.status == 0, "\(viaAgent.stderrText)")
        expectSecret(stored + "\n", equals: viaAgent.stdoutText)
        let gitViaAgent = try ProcessRunner.run(
            cli.authvault, ["token", "--format", "header"], environment: wrongPassphrase)
        expectSecret("Authorization: Bearer \(stored)\n", equals: gitViaAgent.stdoutText)

        // SIGTERM stops it cleanly and removes the socket; then the direct path is used again.
        #expect(try await agent.terminate(timeout: 10) == 0, "\(agent.log)")
        #expect(!FileManager.default.fileExists(atPath: socket))
        let direct = try ProcessRunner.run(cli.authvault, ["token"], environment: wrongPassphrase)
        #expect(direct.status == 4)
        expectSecret(
            stored + "\n",
            equals: try ProcessRunner.run(cli.authvault, ["token"], environment: cli.environment).stdoutText)
    }
}
