import Foundation
import Testing
import TestSupport

/// The file vault's key cache outside a login session: each `authvault` runs in a session keyring of its own
/// (`keyctl session -`, as cron, systemd services, CI and containers run), yet the second finds the key the first
/// cached, in the user keyring; and another uid (65534, through setpriv) cannot read that key even from a session
/// keyring that links this user's keyring, as a `su` without a new session has.
@Suite(.serialized, .enabled(if: KeyringTools.present, "needs keyctl and setpriv"))
struct KeyCacheSharingTests {
    let root: TemporaryDirectory
    let authvault = BuiltProducts.executable("authvault")
    let passphrase = "correct horse"
    let token: String

    var dataDirectory: String { root.appending("data") + "/authvault" }
    var environment: [String: String] {
        ["HOME": root.path, "XDG_CONFIG_HOME": root.appending("config"), "XDG_DATA_HOME": root.appending("data"),
         "XDG_RUNTIME_DIR": root.appending("runtime"), "PATH": "/usr/bin:/bin", "AUTHVAULT_KEY_CACHE_TIMEOUT": "300"]
    }

    init() async throws {
        root = try TemporaryDirectory(prefix: "authvault-key-cache")
        let now = Int(Date().timeIntervalSince1970)
        token = try TestJWT.unsigned(["iat": now, "exp": now + 3600, "jti": "shared-cache"])
        let configured = try await BoundedProcess.run(authvault, ["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1",
                                                                  "--vault", "file"], environment: environment, timeout: 30)
        guard configured.status == 0 else { throw TestFixtureError("configure: \(configured.stderrText)") }
        let record: [String: Any] = ["profile": "default", "revision": 1, "accessToken": token, "refreshToken": "refresh-shared",
                                     "username": "alice", "accessTokenExpiresAt": Double(now + 3600)]
        let saved = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            ["save", "--backend", "file", "--directory", dataDirectory, "--logn", "10", "--cache", "none", "--profile", "default"],
            stdin: try JSONSerialization.data(withJSONObject: record),
            environment: environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": passphrase]) { $1 }, timeout: 30)
        guard saved.stdoutText.contains(#""outcome":"ok""#) else { throw TestFixtureError("vault-probe save: \(saved.stdoutText)") }
    }

    /// `script` under `sh -ec` in a new anonymous session keyring, with `$AUTHVAULT`, `$DESCRIPTION` (the vault's
    /// key in the keyring) and the given passphrase, if any.
    func inNewSession(_ script: String, passphrase: String? = nil) async throws -> ProcessOutput {
        var environment = environment
        environment["AUTHVAULT"] = authvault
        environment["DESCRIPTION"] = try keyDescription()
        environment["AUTHVAULT_VAULT_PASSPHRASE"] = passphrase
        return try await BoundedProcess.run("/usr/bin/keyctl", ["session", "-", "sh", "-ec", script], environment: environment, timeout: 60)
    }

    /// "authvault:vault-key:" + hex(SHA-256(salt))[0..<32], the salt at bytes 27..<59 of vault.key (VaultKeyFile).
    func keyDescription() throws -> String {
        try Self.keyDescription(dataDirectory: dataDirectory)
    }

    static func keyDescription(dataDirectory: String) throws -> String {
        let keyFile = try #require(FileManager.default.contents(atPath: dataDirectory + "/vault.key"))
        let digest = try ProcessRunner.run("/usr/bin/python3", ["-c", "import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()[27:59]).hexdigest()[:32])"],
                                           stdin: keyFile)
        return "authvault:vault-key:" + digest.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Drops the test vault's key from the user keyring (it would go after AUTHVAULT_KEY_CACHE_TIMEOUT anyway).
    func lock() async throws {
        _ = try await inNewSession(#""$AUTHVAULT" vault lock"#)
    }

    @Test func processesInSessionKeyringsOfTheirOwnShareTheCache() async throws {
        let first = try await inNewSession(#""$AUTHVAULT" token"#, passphrase: passphrase)
        #expect(first.status == 0, "\(first.stderrText)")
        expectSecret(first.stdoutText.trimmingCharacters(in: .newlines), equals: token, "the first token")
        // No passphrase at all and no terminal: only the cached key can open the vault.
        let second = try await inNewSession(#""$AUTHVAULT" token"#)
        #expect(second.status == 0, "the second process found no cached key: \(second.stderrText)")
        expectSecret(second.stdoutText.trimmingCharacters(in: .newlines), equals: token, "the second token, from the cached key")
        let inUserKeyring = try await inNewSession(#"keyctl search @u user "$DESCRIPTION" >/dev/null && echo found"#)
        #expect(inUserKeyring.stdoutText == "found\n", "the key is in the user keyring: \(inUserKeyring.stderrText)")

        let status = try await inNewSession(#""$AUTHVAULT" vault status --json"#)
        let report = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any] ?? [:]
        let file = (report["backends"] as? [[String: Any]] ?? []).first { $0["backend"] as? String == "file" }
        let details = file?["details"] as? [String: String] ?? [:]
        #expect(details["keyCacheShared"]?.hasPrefix("yes") == true, "\(details)")
        #expect(details["keyCache"]?.hasPrefix("user keyring") == true, "\(details)")

        try await lock()
        let locked = try await inNewSession(#""$AUTHVAULT" token"#)
        #expect(locked.status != 0, "a token after the lock, with no passphrase")
        let afterLock = try await inNewSession(#""$AUTHVAULT" vault status --json"#)
        #expect(afterLock.stdoutText.contains("no key is cached"), "\(afterLock.stdoutText)")
    }

    /// The session keyring links this user's keyring, as a login session's does, and is shared with uid 65534: a
    /// key planted there with the kernel's default permissions is readable by 65534 (the setup can tell), the vault's
    /// key is not, neither by serial nor by search.
    @Test func anotherUidCannotReadTheCachedKey() async throws {
        let output = try await inNewSession(#"""
            keyctl link @u @s
            "$AUTHVAULT" token >/dev/null
            serial=$(keyctl search @u user "$DESCRIPTION")
            planted=$(printf 'planted-key-bytes' | keyctl padd user "authvault-test:planted:$$" @s)
            as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
            as_nobody keyctl print "$planted" >/dev/null 2>&1 && echo "planted: readable" || echo "planted: refused"
            as_nobody keyctl print "$serial" >/dev/null 2>&1 && echo "vault key: readable" || echo "vault key: refused"
            as_nobody keyctl search @s user "$DESCRIPTION" >/dev/null 2>&1 && echo "vault key: found" || echo "vault key: not found"
            keyctl invalidate "$planted"
            """#, passphrase: passphrase)
        try await lock()
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(output.stdoutText == "planted: readable\nvault key: refused\nvault key: not found\n", "\(output.stdoutText)")
    }
}

enum KeyringTools {
    static let present = ["keyctl", "setpriv"].allSatisfy { (try? ProcessRunner.which($0)) != nil }
        && FileManager.default.fileExists(atPath: "/proc/keys")
}
