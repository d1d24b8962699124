import Foundation
import TestSupport
import Testing

/// `authvault agent` started on a terminal, where a person could be asked: it never is. Without the vault passphrase
/// the agent starts locked and says so, and a client's request that needs the passphrase, or the keyring's unlock, is
/// answered "vault locked" at once (exit 4, naming the command that unlocks) instead of the agent asking on its
/// terminal, or raising the desktop's unlock prompt, for a secret the user did not mean to give; `vault unlock`,
/// asked in the user's own terminal, then hands the key over and the agent serves.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/keyctl"), "needs keyutils (keyctl)"))
struct AgentAsksNobodyTests {
    @Test func anAgentOnATerminalWithoutThePassphraseAnswersLockedAndAsksNothing() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let stored = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        // The key cache on, and one session keyring for both sides, as in a login session: `vault unlock` hands the
        // agent the key through it.
        let keyCache = ["AUTHVAULT_KEY_CACHE_TIMEOUT": "60"]
        let agent = try await TerminalAgent.start(cli, extraEnvironment: keyCache)
        defer { agent.kill() }

        try await Self.expectLockedAtOnce(cli)
        let unlock = try await cli.run(["vault", "unlock"], extraEnvironment: keyCache, wrapper: agent.inSession)
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        #expect(unlock.stderrText.contains("in the agent too"))
        let served = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(served.status == 0, "the same agent, still running, serves: \(served.stderrText)")
        expectSecret(stored + "\n", equals: served.stdoutText)
        #expect(
            try await cli.run(["vault", "lock"], extraEnvironment: keyCache, wrapper: agent.inSession).status == 0,
            "no key left behind")

        let screen = try await agent.stop()
        #expect(screen.status == 0)
        #expect(!screen.screen.contains("Vault passphrase:"), "no prompt on the agent's terminal: \(screen.screen)")
        #expect(screen.screen.contains("the encrypted file vault is locked"), "said at start: \(screen.screen)")
        #expect(screen.screen.contains("'authvault vault unlock'"))
        cli.expectNoSecretLeaks()
    }

    /// The keyring alike: its default collection locked, the agent answers "vault locked" without trying the Secret
    /// Service's unlock prompt, which an agent on a terminal used to raise (here it fails at once, as no prompter
    /// runs on the test's bus, and says so in the answer).
    @Test(.enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
    func aLockedKeyringIsAnsweredLockedWithoutItsUnlockPrompt() async throws {
        let profile = try await SignedInProfile.make(setup: .gnomeKeyring)
        let cli = profile.cli
        try cli.session.lockDefaultCollection()
        let agent = try await TerminalAgent.start(cli)
        defer { agent.kill() }

        let locked = try await Self.expectLockedAtOnce(cli)
        #expect(!locked.contains("prompt"), "the unlock prompt was not tried: \(locked)")
        let screen = try await agent.stop()
        #expect(screen.status == 0, "the agent ran on: \(screen.screen)")
        cli.expectNoSecretLeaks()
    }

    /// `authvault token` with no passphrase of its own: "vault locked" from the agent, with the remedy, before the
    /// client would give up waiting on an agent stuck at a prompt (usually well within a second). Returns what it said.
    @discardableResult
    static func expectLockedAtOnce(_ cli: HeadlessCLI, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> String
    {
        let started = ContinuousClock.now
        let locked = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        let took = ContinuousClock.now - started
        #expect(locked.status == 4, "\(locked.stderrText)", sourceLocation: sourceLocation)
        #expect(locked.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(
            locked.stderrText.contains("'authvault vault unlock'"), "\(locked.stderrText)",
            sourceLocation: sourceLocation)
        // An agent stuck at a prompt would be given up on after the client's 5 s, and the direct path names no remedy.
        #expect(
            took < .seconds(5), "answered by the agent, not by the client giving up on it: \(took)",
            sourceLocation: sourceLocation)
        return locked.stderrText
    }
}

/// `authvault agent` on a pseudo-terminal, in a session keyring of its own that this user's other processes may
/// join by name (`inSession`), as the processes of one login session share theirs; no vault passphrase.
private struct TerminalAgent {
    /// Runs a command in the agent's session keyring.
    let inSession: [String]
    let pid: Int32
    private let terminal: Task<PseudoTerminal.Session, any Error>

    static func start(_ cli: HeadlessCLI, extraEnvironment: [String: String] = [:]) async throws -> TerminalAgent {
        let inSession = [
            "/usr/bin/keyctl", "session", "authvault-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
        ]
        let pidFile = cli.root + "/agent.pid"
        let environment = cli.environment.merging(extraEnvironment) { $1 }.merging(["TERM": "dumb"]) { $1 }
            .filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        // The keyring made findable by its name, by this user only.
        let command =
            inSession + [
                "/bin/sh", "-c", "keyctl setperm @s 0x3f3f0000 && echo $$ > \"$0\" && exec \"$1\" agent",
                pidFile, cli.authvault,
            ]
        let terminal = Task {
            try await OffPool.run { try PseudoTerminal.run(command, answers: [], environment: environment) }
        }
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let pidText = try? String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard let pid = pidText.flatMap({ Int32($0) }), FileManager.default.fileExists(atPath: socket) else {
            terminal.cancel()
            throw TestFixtureError("the agent did not start on its terminal")
        }
        return TerminalAgent(inSession: inSession, pid: pid, terminal: terminal)
    }

    /// SIGTERM, then what its terminal showed.
    func stop() async throws -> PseudoTerminal.Session {
        Glibc.kill(pid, SIGTERM)
        return try await terminal.value
    }

    func kill() {
        Glibc.kill(pid, SIGKILL)
    }
}
