import Foundation
import TestSupport
import Testing

/// `authvault vault ...` as a user runs it: the built binary, a real gnome-keyring on a private bus, and the
/// encrypted file vault in isolated XDG directories.
@Suite(.serialized, .enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
struct VaultCommandTests {
    let session: SecretServiceSession
    let authvault = BuiltProducts.executable("authvault")
    let probe = BuiltProducts.executable("vault-probe")
    let record =
        #"{"profile": "default", "revision": 3, "accessToken": "access-123", "refreshToken": "refresh-456", "username": "alice", "email": "alice@example.com"}"#

    init() throws {
        session = try SecretServiceSession(.gnomeKeyring)
    }

    var dataDirectory: String { session.environment["XDG_DATA_HOME"]! + "/authvault" }
    var configPath: String { session.environment["XDG_CONFIG_HOME"]! + "/authvault/config.json" }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        // No key cache: tests must not leave keys in the user keyring.
        session.environment.merging(["AUTHVAULT_VAULT_PASSPHRASE": "correct horse", "AUTHVAULT_KEY_CACHE_TIMEOUT": "0"])
        { $1 }
        .merging(extra) { $1 }
    }

    func cli(_ arguments: [String], _ extra: [String: String] = [:]) throws -> ProcessOutput {
        try ProcessRunner.run(authvault, arguments, environment: environment(extra))
    }

    func probeRun(_ arguments: [String], stdin: String? = nil, passphrase: String = "correct horse") throws -> [String:
        Any]
    {
        let output = try ProcessRunner.run(
            probe,
            arguments + [
                "--backend", "file", "--directory", dataDirectory, "--logn", "10",
                "--cache", "none", "--profile", "default",
            ],
            stdin: stdin.map { Data($0.utf8) },
            environment: session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": passphrase]) { $1 })
        let line = output.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        return (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    func statusJSON() throws -> [String: Any] {
        let output = try cli(["vault", "status", "--json"])
        #expect(output.status == 0, "\(output.stderrText)")
        return try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any] ?? [:]
    }

    func profileEntry(_ status: [String: Any]) -> [String: Any] {
        (status["profiles"] as? [[String: Any]])?.first ?? [:]
    }

    func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func migrateBetweenBackendsKeepsTheRecordAndSwitchesTheProfile() throws {
        #expect(
            try cli(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"])
                .status == 0)
        _ = try probeRun(["save"], stdin: record)
        var status = try statusJSON()
        #expect(profileEntry(status)["backend"] as? String == "file")
        #expect(profileEntry(status)["stored"] as? Bool == true)
        let backends = status["backends"] as? [[String: Any]] ?? []
        #expect(backends.first { $0["backend"] as? String == "secret-service" }?["state"] as? String == "available")
        #expect(
            backends.first { $0["backend"] as? String == "file" }?["details"].flatMap {
                ($0 as? [String: String])?["logN"]
            } == "10")

        let toKeyring = try cli(["vault", "migrate", "--to", "secret-service"])
        #expect(toKeyring.status == 0, "\(toKeyring.stderrText)")
        #expect(toKeyring.stderrText.contains("Moved profile 'default' from file to secret-service"))
        let lookup = try session.run("secret-tool", ["lookup", "application", "authvault", "profile", "default"])
        #expect(lookup.stdoutText.contains("refresh-456"))
        #expect(!FileManager.default.fileExists(atPath: dataDirectory + "/default.record"))
        #expect(try String(contentsOfFile: configPath, encoding: .utf8).contains(#""vault" : "secret-service""#))
        status = try statusJSON()
        #expect(profileEntry(status)["backend"] as? String == "secret-service")
        #expect(profileEntry(status)["stored"] as? Bool == true)

        let back = try cli(["vault", "migrate", "--to", "file"])
        #expect(back.status == 0, "\(back.stderrText)")
        let loaded = try probeRun(["load"])
        let fields = loaded["record"] as? [String: Any]
        #expect(fields?["refreshToken"] as? String == "refresh-456")
        #expect(fields?["revision"] as? Int == 3)
        #expect(
            try session.run("secret-tool", ["lookup", "application", "authvault", "profile", "default"]).stdout.isEmpty)
        for output in [toKeyring, back] {
            #expect(!output.stderrText.contains("refresh-456") && !output.stdoutText.contains("refresh-456"))
        }
    }

    /// `--debug` says each D-Bus call and its time, and nothing of what the calls carry.
    @Test func theDebugTraceNamesEachSecretServiceCall() throws {
        #expect(
            try cli(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"])
                .status == 0)
        _ = try probeRun(["save"], stdin: record)
        #expect(try cli(["vault", "migrate", "--to", "secret-service"]).status == 0)
        let status = try cli(["status", "--debug"])
        #expect(
            status.stderrText.contains(
                "authvault debug: D-Bus Secret Service: look up the item of profile 'default' (plain session) in "),
            "\(status.stderrText)")
        #expect(status.stderrText.contains("its tokens in the secret-service vault"), "\(status.stderrText)")
        for secret in ["access-123", "refresh-456"] {
            #expect(!status.stderrText.contains(secret) && !status.stdoutText.contains(secret))
        }
    }

    @Test func aWrongOrMissingPassphraseChangesNothingAndExitsWithVaultLocked() throws {
        _ = try cli(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"])
        _ = try probeRun(["save"], stdin: record)
        let before = fileBytes(dataDirectory + "/default.record")
        let keyBefore = fileBytes(dataDirectory + "/vault.key")

        let wrong = try cli(["vault", "migrate", "--to", "secret-service"], ["AUTHVAULT_VAULT_PASSPHRASE": "wrong"])
        #expect(wrong.status == 4)
        #expect(wrong.stderrText.contains("Wrong vault passphrase"))

        var without = environment()
        without.removeValue(forKey: "AUTHVAULT_VAULT_PASSPHRASE")
        let missing = try ProcessRunner.run(
            authvault, ["vault", "migrate", "--to", "secret-service"], environment: without)
        #expect(missing.status == 4)
        #expect(missing.stderrText.contains("AUTHVAULT_VAULT_PASSPHRASE"))

        #expect(fileBytes(dataDirectory + "/default.record") == before)
        #expect(fileBytes(dataDirectory + "/vault.key") == keyBefore)
        #expect(try String(contentsOfFile: configPath, encoding: .utf8).contains(#""vault" : "file""#))
    }

    @Test func changePassphraseRewrapsAndLockSucceeds() throws {
        _ = try cli(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"])
        _ = try probeRun(["save"], stdin: record)
        let recordBefore = fileBytes(dataDirectory + "/default.record")
        let changed = try cli(["vault", "change-passphrase"], ["AUTHVAULT_NEW_VAULT_PASSPHRASE": "battery staple"])
        #expect(changed.status == 0, "\(changed.stderrText)")
        #expect(fileBytes(dataDirectory + "/default.record") == recordBefore)
        #expect(
            (try probeRun(["load"], passphrase: "battery staple")["record"] as? [String: Any])?["accessToken"]
                as? String == "access-123")
        #expect(try probeRun(["load"])["outcome"] as? String != "ok")
        #expect(try cli(["vault", "lock"]).status == 0)
    }

    @Test func aLockedKeyringIsReportedAsLockedNotMissing() throws {
        _ = try cli(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"])
        _ = try probeRun(["save"], stdin: record)
        try session.lockDefaultCollection()
        let status = try statusJSON()
        let backends = status["backends"] as? [[String: Any]] ?? []
        #expect(backends.first { $0["backend"] as? String == "secret-service" }?["state"] as? String == "locked")
        let migrate = try cli(["vault", "migrate", "--to", "secret-service"])
        #expect(migrate.status == 4)
        #expect(migrate.stderrText.contains("locked"))
        #expect(FileManager.default.fileExists(atPath: dataDirectory + "/default.record"))
    }

    @Test func usageErrors() throws {
        #expect(try cli(["vault", "migrate"]).status == 2)
        #expect(try cli(["vault", "migrate", "--to", "plaintext"]).status == 2)
        #expect(try cli(["vault"]).status == 2)
        let help = try cli(["vault", "--help"])
        #expect(help.status == 0)
        for command in ["status", "migrate", "lock", "unlock", "change-passphrase"] {
            #expect(help.stdoutText.contains(command))
        }
        #expect(try cli(["vault", "change-passphrase", "--help"]).stdoutText.contains("--rekey"))
    }

    /// With no agent running, lock and unlock act here only and say so; a wrong passphrase leaves it locked (4).
    @Test func lockAndUnlockWithoutAnAgent() throws {
        _ = try cli(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"])
        _ = try probeRun(["save"], stdin: record)
        let lock = try cli(["vault", "lock"])
        #expect(lock.status == 0)
        #expect(lock.stderrText == "Locked the encrypted file vault.\n")
        let wrong = try cli(["vault", "unlock"], ["AUTHVAULT_VAULT_PASSPHRASE": "wrong"])
        #expect(wrong.status == 4)
        #expect(wrong.stderrText.contains("Wrong vault passphrase"))
        let unlock = try cli(["vault", "unlock"])
        #expect(unlock.status == 0, "\(unlock.stderrText)")
        #expect(unlock.stderrText == "Unlocked the encrypted file vault.\n")
    }
}

/// `auto` decides once, says so when it falls back to the file, and remembers.
@Suite(.serialized, .enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
struct AutomaticBackendTests {
    let authvault = BuiltProducts.executable("authvault")

    func configure(_ session: SecretServiceSession, _ extra: [String: String] = [:], client: String = "client1") throws
        -> ProcessOutput
    {
        try ProcessRunner.run(
            authvault, ["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", client],
            environment: session.environment.merging(extra) { $1 })
    }

    func recordedBackend(_ session: SecretServiceSession) throws -> String? {
        let output = try ProcessRunner.run(authvault, ["vault", "status", "--json"], environment: session.environment)
        let status = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        return ((status?["profiles"] as? [[String: Any]])?.first)?["backend"] as? String
    }

    @Test(arguments: [SecretServiceSession.Setup.noBus, .busOnly])
    func withoutASecretServiceTheFileIsChosenSaidOnceAndRecorded(setup: SecretServiceSession.Setup) throws {
        let session = try SecretServiceSession(setup)
        let first = try configure(session)
        #expect(first.status == 0)
        #expect(first.stderrText.contains("No unlocked Secret Service"))
        #expect(first.stderrText.contains("encrypted file vault"))
        #expect(try recordedBackend(session) == "file")
        let second = try configure(session, client: "client2")
        #expect(!second.stderrText.contains("Secret Service"))
        #expect(try recordedBackend(session) == "file")
    }

    @Test func anUnlockedKeyringIsChosen() throws {
        let session = try SecretServiceSession(.gnomeKeyring)
        let output = try configure(session)
        #expect(output.stderrText.contains("keeps its tokens in the Secret Service"))
        #expect(try recordedBackend(session) == "secret-service")
    }

    @Test func aServiceThatNeverAnswersFallsBackWithinTheBound() throws {
        let session = try SecretServiceSession(.silentOwner)
        let start = Date()
        let output = try configure(session, ["AUTHVAULT_SECRET_SERVICE_TIMEOUT": "0.5"])
        #expect(Date().timeIntervalSince(start) < 3)
        #expect(output.stderrText.contains("did not answer in time"))
        #expect(try recordedBackend(session) == "file")
    }
}

/// Passphrases typed at a terminal: asked without echo, twice for a new passphrase, never on the screen.
@Suite struct PassphrasePromptTests {
    @Test func changePassphraseAtATerminal() throws {
        let session = try SecretServiceSession(.noBus)
        let probe = BuiltProducts.executable("vault-probe")
        let dataDirectory = session.environment["XDG_DATA_HOME"]! + "/authvault"
        let saved = try ProcessRunner.run(
            probe,
            [
                "save", "--backend", "file", "--directory", dataDirectory, "--logn", "10",
                "--cache", "none", "--profile", "default",
            ],
            stdin: Data(#"{"profile": "default", "accessToken": "a"}"#.utf8),
            environment: session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": "old secret words"]) { $1 })
        #expect(saved.status == 0)
        let environment = session.environment.merging(["AUTHVAULT_KEY_CACHE_TIMEOUT": "0", "TERM": "dumb"]) { $1 }
        let run = try PseudoTerminal.run(
            [BuiltProducts.executable("authvault"), "vault", "change-passphrase"],
            answers: [
                ("New vault passphrase:", "new secret words"), ("Repeat the vault passphrase:", "new secret words"),
                ("Vault passphrase:", "old secret words"),
            ],
            environment: environment)
        #expect(run.status == 0, "\(run.screen)")
        #expect(run.answered == 3)
        #expect(run.screen.contains("Changed the vault passphrase."))
        #expect(!run.screen.contains("secret words"))
        let reread = try ProcessRunner.run(
            probe,
            [
                "load", "--backend", "file", "--directory", dataDirectory, "--cache", "none",
                "--profile", "default",
            ],
            environment: session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": "new secret words"]) { $1 })
        #expect(
            reread.stdoutText.contains(#""accessToken":"a""#) || reread.stdoutText.contains(#""accessToken" : "a""#))
    }

    @Test func mismatchedNewPassphrasesChangeNothing() throws {
        let session = try SecretServiceSession(.noBus)
        let run = try PseudoTerminal.run(
            [BuiltProducts.executable("authvault"), "vault", "change-passphrase"],
            answers: [("New vault passphrase:", "one thing"), ("Repeat the vault passphrase:", "another thing")],
            environment: session.environment.merging(["TERM": "dumb"]) { $1 })
        #expect(run.status == 4)
        #expect(run.screen.contains("differ"))
    }
}
