import Foundation
import TestSupport
import Testing

/// EncryptedFileVault across processes (vault-probe): concurrent writers and readers, writers killed mid-write, and
/// the user-keyring cache that makes a warm read run no KDF. Keyring scenarios run under `keyctl session -`, a
/// fresh anonymous session keyring per scenario (as cron, services and CI run), and end by dropping the test
/// vault's key from the user keyring.
@Suite(.enabled(if: (try? ProcessRunner.which("keyctl")) != nil, "needs keyutils (keyctl)"))
struct EncryptedFileVaultProcessTests {
    let root: TemporaryDirectory
    var directory: String { root.appending("authvault") }
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["AUTHVAULT_PROBE_PASSPHRASE"] = "process test passphrase"
        return environment
    }

    init() throws {
        root = try TemporaryDirectory(prefix: "authvault-file-processes")
    }

    /// The probe's arguments for this test's vault (small scrypt parameters).
    func arguments(_ operation: String, cache: String = "none") -> [String] {
        [operation, "--backend", "file", "--directory", directory, "--logn", "10", "--cache", cache]
    }

    func probe(_ operation: String, stdin: Data? = nil) async throws -> ProbeOutcome {
        try ProbeOutcome.single(
            in: await VaultProbe.run(
                VaultProbe.path, arguments(operation), stdin: stdin,
                environment: environment))
    }

    /// A shell script of sequential commands (no `&` and `wait`: children of the test runner inherit a blocked
    /// SIGCHLD, on which dash's `wait` hangs) run in a new anonymous session keyring, with `$PROBE` and `$VAULT` set.
    func inNewSessionKeyring(_ script: String) async throws -> [ProbeOutcome] {
        var environment = self.environment
        environment["PROBE"] = VaultProbe.path
        environment["VAULT"] = directory
        let cleanUp = "\n\"$PROBE\" lock --backend file --directory \"$VAULT\" --cache keyring >/dev/null\n"
        let output = try await VaultProbe.run(
            "keyctl", ["session", "-", "sh", "-ec", script + cleanUp], environment: environment)
        #expect(output.status == 0, "\(output.stderrText)")
        return try ProbeOutcome.all(in: output)
    }

    /// OpenSSL's own exit handler would free what threads still running use, and leak the error state of a thread
    /// that ends during it (LeakSanitizer caught one in 20 concurrent `aws-credentials`); the loaders turn it off.
    @Test func openSSLIsStillWholeWhenTheExitHandlersRun() async throws {
        let output = try await VaultProbe.run(
            VaultProbe.path, arguments("save") + ["--openssl-at-exit"],
            stdin: VaultProbe.json(VaultProbe.record()), environment: environment)
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(try ProbeOutcome.single(in: output).outcome == "ok")
    }

    @Test func manyProcessesNeverSeeATornRecord() async throws {
        #expect(try await probe("save", stdin: VaultProbe.json(VaultProbe.record())).outcome == "ok")
        let hammers = try (1...8).map { writer in
            try InteractiveProcess(
                VaultProbe.path, arguments("hammer") + ["--count", "50", "--writer", "\(writer)"],
                environment: environment)
        }
        let lines = try await OffPool.run {
            try hammers.map { hammer in
                guard let line = hammer.readLine(timeout: 60) else { throw TestFixtureError("a hammer process hung") }
                return line
            }
        }
        let outcomes = try lines.map(ProbeOutcome.init(line:))
        for outcome in outcomes {
            #expect(outcome.outcome == "ok", "\(outcome)")
            #expect(outcome.object["torn"] as? Int == 0)
            #expect(outcome.object["loads"] as? Int == 25)
        }
        let last = try await probe("load")
        #expect(last.outcome == "ok")
        #expect(try await probe("list").object["profiles"] as? [String] == ["work"])
    }

    @Test func aWriterKilledMidWriteLeavesAWholeRecord() async throws {
        var lastRevision = 0
        for round in 0..<6 {
            let writer = try InteractiveProcess(VaultProbe.path, arguments("write-loop"), environment: environment)
            let ready = try await OffPool.run { writer.readLine() }
            #expect(ready == "ready")
            // Somewhere in the middle of a later write: each takes a few milliseconds (two fsyncs).
            try await Task.sleep(for: .microseconds(Int.random(in: 1_000...40_000) + round * 3_000))
            writer.kill(signal: SIGKILL)
            let loaded = try await probe("load")
            #expect(loaded.outcome == "ok", "\(loaded)")
            let record = try #require(loaded.record)
            let revision = try #require(record["revision"] as? Int)
            #expect(revision >= 1)
            // Every secret comes from the same write.
            #expect(record["accessToken"] as? String == "access-rev\(revision)")
            #expect(record["refreshToken"] as? String == "refresh-rev\(revision)")
            #expect(record["clientSecret"] as? String == "secret-rev\(revision)")
            lastRevision = max(lastRevision, revision)
        }
        #expect(lastRevision >= 1)
        #expect(try await probe("list").object["profiles"] as? [String] == ["work"])
    }

    /// Writers in other processes keep saving while the vault is re-keyed: each write lands before the re-key (and
    /// is re-encrypted by it) or fails after it (their passphrase is now the old one); none is left sealed under the
    /// old key, so every record opens with the new passphrase.
    @Test func aReKeyAmidWritersLeavesEveryRecordReadable() async throws {
        let profiles = ["work", "home", "ci"]
        let writers = try profiles.map { profile in
            try InteractiveProcess(
                VaultProbe.path, arguments("write-loop") + ["--profile", profile], environment: environment)
        }
        defer { for writer in writers { writer.kill() } }
        for writer in writers { #expect(try await OffPool.run { writer.readLine(timeout: 30) } == "ready") }
        try await Task.sleep(for: .milliseconds(50))

        var rekeying = environment
        rekeying["AUTHVAULT_PROBE_NEW_PASSPHRASE"] = "the new passphrase"
        let rekey = try ProbeOutcome.single(
            in: await VaultProbe.run(
                VaultProbe.path, arguments("change-passphrase") + ["--rekey"],
                environment: rekeying))
        #expect(rekey.outcome == "ok", "\(rekey)")
        for writer in writers {
            let ended = try await OffPool.run { writer.readLine(timeout: 30) }.map(ProbeOutcome.init(line:))
            #expect(ended?.outcome == "wrongPassphrase", "\(ended.map { "\($0)" } ?? "still writing")")
        }
        var reading = environment
        reading["AUTHVAULT_PROBE_PASSPHRASE"] = "the new passphrase"
        for profile in profiles {
            let loaded = try ProbeOutcome.single(
                in: await VaultProbe.run(
                    VaultProbe.path, arguments("load") + ["--profile", profile],
                    environment: reading))
            #expect(loaded.outcome == "ok", "\(profile): \(loaded)")
            let revision = loaded.record?["revision"] as? Int ?? 0
            #expect(loaded.record?["accessToken"] as? String == "access-rev\(revision)", "a whole record")
        }
    }

    @Test func aWarmReadRunsNoKDFAndLockDropsTheKey() async throws {
        let record = String(decoding: VaultProbe.json(VaultProbe.record()), as: UTF8.self)
        let outcomes = try await inNewSessionKeyring(
            """
            echo '\(record)' | "$PROBE" save --backend file --directory "$VAULT" --logn 10 --cache keyring
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            "$PROBE" status --backend file --directory "$VAULT" --cache keyring
            "$PROBE" lock --backend file --directory "$VAULT" --cache keyring
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            env -u AUTHVAULT_PROBE_PASSPHRASE "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            "$PROBE" lock --backend file --directory "$VAULT" --cache keyring
            env -u AUTHVAULT_PROBE_PASSPHRASE "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            """)
        try #require(outcomes.count == 9)
        #expect(outcomes.prefix(7).allSatisfy { $0.outcome == "ok" }, "\(outcomes)")
        #expect(outcomes.prefix(7).map(\.keyDerivations) == [1, 0, 0, 0, 1, 0, 0])
        // Another process reads with no passphrase at all while the key is cached, and needs one after a lock.
        #expect(outcomes[8].outcome == "passphraseRequired")
        #expect(outcomes[2].state == "available")
        #expect((outcomes[2].object["details"] as? [String: String])?["keyCached"] == "yes")
        #expect(VaultProbe.same(outcomes[1].record, VaultProbe.record()))
    }

    /// `recordAtHand` (the CLI's warm `token`, on its own thread): the record only while the key is in the user
    /// keyring and the vault has not been locked; never a passphrase, never a derivation.
    @Test func aRecordIsAtHandOnlyWhileTheKeyIsCached() async throws {
        let record = String(decoding: VaultProbe.json(VaultProbe.record()), as: UTF8.self)
        let outcomes = try await inNewSessionKeyring(
            """
            echo '\(record)' | "$PROBE" save --backend file --directory "$VAULT" --logn 10 --cache none
            "$PROBE" at-hand --backend file --directory "$VAULT" --cache keyring
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            env -u AUTHVAULT_PROBE_PASSPHRASE "$PROBE" at-hand --backend file --directory "$VAULT" --cache keyring
            "$PROBE" at-hand --backend file --directory "$VAULT" --cache none
            "$PROBE" lock --backend file --directory "$VAULT" --cache keyring
            "$PROBE" at-hand --backend file --directory "$VAULT" --cache keyring
            """)
        try #require(outcomes.count == 7)
        #expect(
            outcomes.map(\.outcome) == ["ok", "notAtHand", "ok", "ok", "notAtHand", "ok", "notAtHand"], "\(outcomes)")
        #expect(outcomes.map(\.keyDerivations) == [1, 0, 1, 0, 0, 0, 0])
        #expect(VaultProbe.same(outcomes[3].record, VaultProbe.record()))
    }

    @Test func aCachedKeyThatDoesNotMatchTheKeyFileIsNeverUsed() async throws {
        #expect(try await probe("save", stdin: VaultProbe.json(VaultProbe.record())).outcome == "ok")
        let outcomes = try await inNewSessionKeyring(
            """
            \(Self.describeKey)
            description=$(describe "$VAULT")
            head -c 32 /dev/urandom | keyctl padd user "$description" @u >/dev/null
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            keyctl search @u user "$description" >/dev/null && echo '{"outcome":"ok","cachedKeyPresent":true}'
            """)
        try #require(outcomes.count == 3)
        // The planted key fails the key check: the first read derives the real key and replaces it.
        #expect(outcomes[0].outcome == "ok" && outcomes[0].keyDerivations == 1)
        #expect(outcomes[1].outcome == "ok" && outcomes[1].keyDerivations == 0)
        #expect(VaultProbe.same(outcomes[1].record, VaultProbe.record()))
    }

    /// The description the vault uses, computed here: "authvault:vault-key:" + hex(the salt's first 16 bytes), the
    /// salt at bytes 27..<59 of vault.key (see VaultKeyFile's layout); `describe_earlier` names it as versions
    /// before did (hex(SHA-256(salt))[0..<32]).
    static let describeKey = """
        describe() { /usr/bin/python3 -c 'import sys; print("authvault:vault-key:" + open(sys.argv[1] + "/vault.key","rb").read()[27:43].hex())' "$1"; }
        describe_earlier() { /usr/bin/python3 -c 'import hashlib,sys; print("authvault:vault-key:" + hashlib.sha256(open(sys.argv[1] + "/vault.key","rb").read()[27:59]).hexdigest()[:32])' "$1"; }
        """

    /// The warm read checks no key check: a random key, and another vault's real key, planted under this vault's
    /// name, fail the record's AES-GCM tag and are not used; the checking read then replaces the planted key.
    @Test func aWrongOrSwappedKeyAtHandIsRefusedByTheRecordsTag() async throws {
        let record = String(decoding: VaultProbe.json(VaultProbe.record()), as: UTF8.self)
        let outcomes = try await inNewSessionKeyring(
            """
            \(Self.describeKey)
            echo '\(record)' | "$PROBE" save --backend file --directory "$VAULT" --logn 10 --cache none
            scratch=$(mktemp -d); other="$scratch/vault"
            trap '"$PROBE" lock --backend file --directory "$other" --cache keyring >/dev/null; rm -rf "$scratch"' EXIT
            echo '\(record)' | "$PROBE" save --backend file --directory "$other" --logn 10 --cache keyring
            head -c 32 /dev/urandom | keyctl padd user "$(describe "$VAULT")" @u >/dev/null
            "$PROBE" at-hand --backend file --directory "$VAULT" --cache keyring
            keyctl pipe "$(keyctl search @u user "$(describe "$other")")" | keyctl padd user "$(describe "$VAULT")" @u >/dev/null
            "$PROBE" at-hand --backend file --directory "$VAULT" --cache keyring
            "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            "$PROBE" at-hand --backend file --directory "$VAULT" --cache keyring
            """)
        try #require(outcomes.count == 6)
        #expect(outcomes.map(\.outcome) == ["ok", "ok", "notAtHand", "notAtHand", "ok", "ok"], "\(outcomes)")
        #expect(outcomes[4].keyDerivations == 1 && outcomes[5].keyDerivations == 0)
        #expect(VaultProbe.same(outcomes[5].record, VaultProbe.record()))
    }

    /// A key cached by an earlier version, under the name it gave it, goes too when the vault is locked.
    @Test func lockingDropsAKeyCachedUnderTheEarlierName() async throws {
        let record = String(decoding: VaultProbe.json(VaultProbe.record()), as: UTF8.self)
        let outcomes = try await inNewSessionKeyring(
            """
            \(Self.describeKey)
            echo '\(record)' | "$PROBE" save --backend file --directory "$VAULT" --logn 10 --cache keyring
            keyctl pipe "$(keyctl search @u user "$(describe "$VAULT")")" | keyctl padd user "$(describe_earlier "$VAULT")" @u >/dev/null
            keyctl search @u user "$(describe_earlier "$VAULT")" >/dev/null && echo '{"outcome":"planted"}'
            "$PROBE" lock --backend file --directory "$VAULT" --cache keyring
            keyctl search @u user "$(describe_earlier "$VAULT")" >/dev/null 2>&1 || echo '{"outcome":"gone"}'
            keyctl search @u user "$(describe "$VAULT")" >/dev/null 2>&1 || echo '{"outcome":"gone"}'
            """)
        #expect(outcomes.map(\.outcome) == ["ok", "planted", "ok", "gone", "gone"], "\(outcomes)")
    }

    @Test func changingThePassphraseKeepsRecordsAndTheCacheFollows() async throws {
        let record = String(decoding: VaultProbe.json(VaultProbe.record()), as: UTF8.self)
        let outcomes = try await inNewSessionKeyring(
            """
            echo '\(record)' | "$PROBE" save --backend file --directory "$VAULT" --logn 10 --cache keyring
            AUTHVAULT_PROBE_NEW_PASSPHRASE=second "$PROBE" change-passphrase --backend file --directory "$VAULT" --logn 10 --cache keyring
            AUTHVAULT_PROBE_PASSPHRASE=second "$PROBE" load --backend file --directory "$VAULT" --cache none
            "$PROBE" load --backend file --directory "$VAULT" --cache none
            AUTHVAULT_PROBE_PASSPHRASE=unused "$PROBE" load --backend file --directory "$VAULT" --cache keyring
            """)
        try #require(outcomes.count == 5)
        #expect(outcomes[1].outcome == "ok")
        #expect(outcomes[2].outcome == "ok" && VaultProbe.same(outcomes[2].record, VaultProbe.record()))
        #expect(outcomes[3].outcome == "wrongPassphrase")
        // The rewrapped key file's cache entry holds the same data key: a warm read still runs no KDF.
        #expect(outcomes[4].outcome == "ok" && outcomes[4].keyDerivations == 0)
    }
}
