import Foundation
import TestSupport
import Testing

/// A running `authvault agent`, and the commands that change what it serves: sign-out, sign-in as another user,
/// `vault lock` and `unlock`, `vault migrate` and `change-passphrase --rekey`. Each reaches the agent before the
/// command returns. The agent has the vault passphrase in its environment (so a lock it quietly undid would show);
/// the clients have none, so whatever they print came through the agent.
@Suite struct AgentRevisionEndToEndTests {
    static let otherUser = "frank"
    static let otherPassword = "Other-User-8!"

    typealias Served = (status: Int32, token: String, printed: Bool, stderr: String)

    /// A signed-in profile, an agent on it, and the token it served first (so its reply is cached).
    static func servingAgent() async throws -> (profile: SignedInProfile, agent: AgentProcess, first: Served) {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        do {
            try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
            let first = try await token(cli)
            guard first.status == 0 else {
                throw TestFixtureError("the agent served nothing: \(first.stderr); \(agent.log)")
            }
            return (profile, agent, first)
        } catch {
            agent.kill()
            throw error
        }
    }

    /// `authvault token` with no vault passphrase of its own. `printed` is whether it printed anything: the
    /// token itself is never compared inside `#expect`, which would show it in the test output.
    static func token(_ cli: HeadlessCLI) async throws -> Served {
        let output = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        let token = output.stdoutText.trimmingCharacters(in: .newlines)
        return (output.status, token, !token.isEmpty, output.stderrText)
    }

    @Test func aSignOutReachesTheAgentAtOnce() async throws {
        let (profile, agent, _) = try await Self.servingAgent()
        defer { agent.kill() }
        let cli = profile.cli

        // moto has no RevokeToken, so the remote half fails (status 5) after the local sign-out.
        let logout = try await cli.run(["logout"])
        #expect(
            logout.status == 0
                || (logout.status == 5 && logout.stderrText.contains("The tokens are gone from this machine")),
            "\(logout.stderrText)")
        let after = try await Self.token(cli)
        #expect(after.status == 3, "sign-in required, not the cached token: \(after.stderr)")
        #expect(!after.printed)
        #expect(after.stderr.contains("authvault login"))
        cli.expectNoSecretLeaks()
    }

    @Test func aSignInAsAnotherUserIsServedAtOnce() async throws {
        let (profile, agent, before) = try await Self.servingAgent()
        defer { agent.kill() }
        let cli = profile.cli
        try await profile.pool.createUser(Self.otherUser, password: Self.otherPassword)
        let firstOwner = try await profile.pool.owner(ofAccessToken: before.token)
        #expect(firstOwner == SignedInProfile.username)

        #expect(try await cli.login(Self.otherUser, lines: [Self.otherPassword]).status == 0)
        let after = try await Self.token(cli)
        #expect(after.status == 0, "\(after.stderr)")
        let newOwner = try await profile.pool.owner(ofAccessToken: after.token)
        #expect(newOwner == Self.otherUser, "the new user's token")
        cli.expectNoSecretLeaks()
    }

    /// After `vault lock` the agent serves nothing (exit 4), not even to a client that has the passphrase, until
    /// `vault unlock`; its own passphrase does not unlock it in between.
    @Test func vaultLockReachesTheAgentUntilUnlock() async throws {
        let (profile, agent, before) = try await Self.servingAgent()
        defer { agent.kill() }
        let cli = profile.cli

        let lock = try await cli.run(["vault", "lock"])
        #expect(lock.status == 0, "\(lock.stderrText)")
        #expect(lock.stderrText.contains("in the agent too"))
        for _ in 0..<2 {
            let locked = try await Self.token(cli)
            #expect(locked.status == 4, "vault locked: \(locked.stderr)")
            #expect(!locked.printed)
            #expect(locked.stderr.contains("authvault vault unlock"))
        }
        let withPassphrase = try await cli.run(["token"])
        let servedNothing = withPassphrase.status == 4 && withPassphrase.stdout.isEmpty
        #expect(servedNothing, "the agent's answer is final (exit \(withPassphrase.status))")

        let unlock = try await cli.run(["vault", "unlock"])
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        #expect(unlock.stderrText.contains("in the agent too"))
        let after = try await Self.token(cli)
        #expect(after.status == 0, "\(after.stderr)")
        expectSecret(after.token, equals: before.token)
        cli.expectNoSecretLeaks()
    }

    /// A sign-in after `vault lock` unlocks everywhere: the running agent too, as `vault unlock` would, so the next
    /// `token` is served rather than "locked" after "Signed in". So does `refresh`, the other command that writes a
    /// session.
    @Test func aSignInAfterVaultLockUnlocksTheAgentToo() async throws {
        let (profile, agent, before) = try await Self.servingAgent()
        defer { agent.kill() }
        let cli = profile.cli

        #expect(try await cli.run(["vault", "lock"]).status == 0)
        #expect(try await Self.token(cli).status == 4)
        let login = try await cli.login(SignedInProfile.username, lines: [SignedInProfile.password], ["--force"])
        #expect(login.status == 0, "\(login.stderrText)")
        let afterLogin = try await Self.token(cli)
        #expect(afterLogin.status == 0, "served after the sign-in: \(afterLogin.stderr); agent: \(agent.log)")
        expectSecret(afterLogin.token, differsFrom: before.token, "the new session's token")

        #expect(try await cli.run(["vault", "lock"]).status == 0)
        let refresh = try await cli.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderrText)")
        #expect(try await Self.token(cli).status == 0, "served after the refresh")
        cli.expectNoSecretLeaks()
    }

    /// When the agent cannot open the vault again (its passphrase file is gone, no key cache), a sign-in is refused
    /// before anything is written, naming the way to unlock it, rather than saying "Signed in" to an agent that
    /// stays locked.
    @Test func aSignInTheAgentCouldNotServeIsRefusedUpFront() async throws {
        let (profile, agent, _) = try await Self.agentThatCannotUnlock()
        defer { agent.kill() }
        let cli = profile.cli
        let recordBefore = cli.recordBytes
        let login = try await cli.login(SignedInProfile.username, lines: [SignedInProfile.password], ["--force"])
        #expect(login.status == 4, "\(login.stderrText)")
        #expect(
            login.stderrText.contains("'authvault vault unlock'") && login.stderrText.contains("Nothing was written"),
            "\(login.stderrText)")
        #expect(!login.stderrText.contains("Signed in"))
        #expect(cli.recordBytes == recordBefore, "the record is as it was")
        #expect(try await cli.run(["refresh"]).status == 4, "refresh is refused alike")
        #expect(cli.recordBytes == recordBefore)
        cli.expectNoSecretLeaks()
    }

    /// An agent that cannot open its vault again (its passphrase file is gone) stays locked, and `vault unlock`
    /// says so with exit status 4 rather than "Unlocked".
    @Test func anAgentThatCannotUnlockStaysLockedAndSaysSo() async throws {
        let (profile, agent, passphraseFile) = try await Self.agentThatCannotUnlock()
        defer { agent.kill() }
        let cli = profile.cli
        let unlock = try await cli.run(["vault", "unlock"])
        #expect(unlock.status == 4, "\(unlock.stderrText)")
        #expect(unlock.stderrText.contains("refused to unlock") && unlock.stderrText.contains(passphraseFile))
        #expect(try await Self.token(cli).status == 4)
        cli.expectNoSecretLeaks()
    }

    /// An agent that served with its passphrase from a file (not its environment, no key cache), then `vault lock`
    /// and the file removed: it cannot open its vault again. Also the removed file's path.
    static func agentThatCannotUnlock() async throws -> (
        profile: SignedInProfile, agent: AgentProcess, passphraseFile: String
    ) {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let secrets = try TemporaryDirectory(prefix: "agent-passphrase")
        let passphraseFile = secrets.appending("vault-passphrase")
        guard
            FileManager.default.createFile(
                atPath: passphraseFile, contents: Data((HeadlessCLI.vaultPassphrase + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        else {
            throw TestFixtureError("cannot create \(passphraseFile)")
        }
        var environment = cli.environment
        environment["AUTHVAULT_VAULT_PASSPHRASE"] = nil
        environment["AUTHVAULT_VAULT_PASSPHRASE_FILE"] = passphraseFile
        let agent = try AgentProcess.start(cli.authvault, environment: environment, log: cli.root + "/agent.log")
        do {
            try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
            guard try await token(cli).status == 0 else {
                throw TestFixtureError("the agent served nothing: \(agent.log)")
            }
            guard try await cli.run(["vault", "lock"]).status == 0 else { throw TestFixtureError("vault lock failed") }
            try FileManager.default.removeItem(atPath: passphraseFile)
            return (profile, agent, passphraseFile)
        } catch {
            agent.kill()
            throw error
        }
    }

    /// `change-passphrase --rekey`: a copy of the old vault.key with the old passphrase opens no record written
    /// since, and the agent (whose passphrase is now the old one, with no key cache) stops serving rather than
    /// going on with the old data key.
    @Test func reKeyingReachesTheAgentAndLocksOutTheOldKeyFile() async throws {
        let (profile, agent, _) = try await Self.servingAgent()
        defer { agent.kill() }
        let cli = profile.cli
        let newPassphrase = "the new vault passphrase words"
        cli.remember(newPassphrase, as: "the new vault passphrase")
        let oldKeyFile = try #require(FileManager.default.contents(atPath: cli.keyFilePath))

        let rekey = try await cli.run(
            ["vault", "change-passphrase", "--rekey"],
            extraEnvironment: ["AUTHVAULT_NEW_VAULT_PASSPHRASE": newPassphrase])
        #expect(rekey.status == 0, "\(rekey.stderrText)")
        let afterRekey = try await Self.token(cli)
        #expect(afterRekey.status == 4, "the agent cannot open the re-keyed vault: \(afterRekey.stderr)")
        #expect(!afterRekey.printed)
        #expect(try await agent.terminate(timeout: 10) == 0)

        let direct = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": newPassphrase])
        #expect(direct.status == 0, "the new passphrase opens the re-keyed record: \(direct.stderrText)")

        let copy = cli.root + "/old-key-copy"
        try FileManager.default.createDirectory(
            atPath: copy, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        for (name, contents) in [("vault.key", oldKeyFile), ("default.record", try #require(cli.recordBytes))] {
            #expect(
                FileManager.default.createFile(
                    atPath: "\(copy)/\(name)", contents: contents, attributes: [.posixPermissions: 0o600]))
        }
        let opened = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            ["load", "--backend", "file", "--directory", copy, "--cache", "none", "--profile", "default"],
            environment: cli.session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": HeadlessCLI.vaultPassphrase]) {
                $1
            })
        #expect(opened.stdoutText.contains(#""outcome":"corrupted""#), "\(opened.stdoutText)")
        cli.expectNoSecretLeaks()
    }

    /// `vault migrate` with the agent serving from the file vault: the agent serves from the Secret Service at once,
    /// and what is later written where the profile used to be is not served.
    @Test(.enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
    func aMigrationIsFollowedAtOnce() async throws {
        let keyring = try KeyringMachine()
        #expect(
            try await keyring.run([
                "configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1",
                "--vault", "file",
            ]).status == 0)
        let first = try await keyring.save("first", backend: "file")
        let agent = try AgentProcess.start(
            keyring.authvault, environment: keyring.environment,
            log: keyring.session.root.path + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(keyring.session.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        expectSecret(try await keyring.tokenThroughAgent(), equals: first, "agent: \(agent.log)")

        let migrate = try await keyring.run(["vault", "migrate", "--to", "secret-service"])
        #expect(migrate.status == 0, "\(migrate.stderrText)")
        expectSecret(try await keyring.tokenThroughAgent(), equals: first)
        let inKeyring = try await keyring.save("in-keyring", backend: "secret-service")
        expectSecret(
            try await keyring.tokenThroughAgent(), equals: inKeyring, "served from the new backend; agent: \(agent.log)"
        )
        _ = try await keyring.save("left-behind", backend: "file")
        expectSecret(try await keyring.tokenThroughAgent(), equals: inKeyring, "not from the old one")
    }
}

/// A desktop machine for the migration: gnome-keyring on a private bus, the file vault beside it, and records
/// written straight into either backend by vault-probe (each write bumps the revision, as the CLI's do).
private struct KeyringMachine {
    let session: SecretServiceSession
    let authvault = BuiltProducts.executable("authvault")
    let environment: [String: String]
    private let passphrase = "correct horse"

    init() throws {
        session = try SecretServiceSession(.gnomeKeyring)
        environment = session.environment.merging([
            "AUTHVAULT_VAULT_PASSPHRASE": passphrase, "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ]) { $1 }
    }

    func run(_ arguments: [String], _ extra: [String: String] = [:]) async throws -> ProcessOutput {
        try await BoundedProcess.run(authvault, arguments, environment: environment.merging(extra) { $1 }, timeout: 60)
    }

    func tokenThroughAgent() async throws -> String {
        let output = try await run(["token"], ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        guard output.status == 0 else { throw TestFixtureError("token exited \(output.status): \(output.stderrText)") }
        return output.stdoutText.trimmingCharacters(in: .newlines)
    }

    /// Saves a session whose access token (fresh for an hour) is marked `tag`; returns that token.
    func save(_ tag: String, backend: String) async throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let token = try TestJWT.unsigned(["iat": now, "exp": now + 3600, "jti": tag])
        let record: [String: Any] = [
            "profile": "default", "revision": 1, "accessToken": token, "refreshToken": "refresh-\(tag)",
            "username": "alice", "accessTokenExpiresAt": Double(now + 3600),
        ]
        let output = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            [
                "save", "--backend", backend, "--directory", session.environment["XDG_DATA_HOME"]! + "/authvault",
                "--logn", "10",
                "--cache", "none", "--pool", "us-east-1_Test1", "--client", "client1", "--profile", "default",
            ],
            stdin: try JSONSerialization.data(withJSONObject: record),
            environment: session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": passphrase]) { $1 })
        guard output.stdoutText.contains(#""outcome":"ok""#) else {
            throw TestFixtureError("vault-probe save: \(output.stdoutText)")
        }
        return token
    }
}
