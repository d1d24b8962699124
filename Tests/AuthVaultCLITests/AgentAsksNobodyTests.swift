import Foundation
import Testing
import TestSupport

/// `authvault agent` started on a terminal without the vault passphrase: it starts locked and says so, and a
/// client's request that needs the passphrase is answered "vault locked" at once (exit 4, naming the command that
/// unlocks) instead of the agent asking on its terminal for a secret the user did not mean to give; `vault unlock`,
/// asked in the user's own terminal, then hands the key over and the agent serves.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/keyctl"), "needs keyutils (keyctl)"))
struct AgentAsksNobodyTests {
    @Test func anAgentOnATerminalWithoutThePassphraseAnswersLockedAndAsksNothing() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let stored = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        // The key cache on, and one session keyring for both sides, as in a login session: `vault unlock` hands the
        // agent the key through it. The agent's side names the keyring and lets this user find it by that name.
        let keyCache = ["AUTHVAULT_KEY_CACHE_TIMEOUT": "60"]
        let inSession = ["/usr/bin/keyctl", "session", "authvault-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"]
        let pidFile = cli.root + "/agent.pid"
        let environment = cli.environment.merging(keyCache) { $1 }.merging(["TERM": "dumb"]) { $1 }
            .filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let command = inSession + ["/bin/sh", "-c", "keyctl setperm @s 0x3f3f0000 && echo $$ > \"$0\" && exec \"$1\" agent", pidFile, cli.authvault]
        let terminal = Task { try await OffPool.run { try PseudoTerminal.run(command, answers: [], environment: environment) } }
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(10)) }
        let pidText = try? String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pidText.flatMap { Int32($0) }, "the agent's pid")
        defer { kill(pid, SIGKILL) }

        let started = ContinuousClock.now
        let locked = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        let took = ContinuousClock.now - started
        #expect(locked.status == 4, "\(locked.stderrText)")
        #expect(locked.stdout.isEmpty)
        #expect(locked.stderrText.contains("'authvault vault unlock'"), "\(locked.stderrText)")
        #expect(took < .seconds(3), "answered by the agent, not after the client gave up waiting on it: \(took)")

        let unlock = try await cli.run(["vault", "unlock"], extraEnvironment: keyCache, wrapper: inSession)
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        #expect(unlock.stderrText.contains("in the agent too"))
        let served = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(served.status == 0, "the same agent, still running, serves: \(served.stderrText)")
        expectSecret(stored + "\n", equals: served.stdoutText)
        #expect(try await cli.run(["vault", "lock"], extraEnvironment: keyCache, wrapper: inSession).status == 0, "no key left behind")

        kill(pid, SIGTERM)
        let screen = try await terminal.value
        #expect(screen.status == 0)
        #expect(!screen.screen.contains("Vault passphrase:"), "no prompt on the agent's terminal: \(screen.screen)")
        #expect(screen.screen.contains("the encrypted file vault is locked"), "said at start: \(screen.screen)")
        #expect(screen.screen.contains("'authvault vault unlock'"))
        cli.expectNoSecretLeaks()
    }
}
