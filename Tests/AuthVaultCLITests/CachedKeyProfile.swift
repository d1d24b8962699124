import Foundation
import TestSupport

/// A file-vault profile, "default", holding a fresh unsigned token in a throw-away home, its vault key cached in the
/// user keyring for five minutes once a process has derived it: for tests that run `authvault` outside a login
/// session (`keyctl session -`, as cron, systemd services, CI and containers run).
struct CachedKeyProfile {
    let root: TemporaryDirectory
    let authvault = BuiltProducts.executable("authvault")
    let passphrase: String
    private(set) var token: String

    var dataDirectory: String { root.appending("data") + "/authvault" }
    var environment: [String: String] {
        [
            "HOME": root.path, "XDG_CONFIG_HOME": root.appending("config"), "XDG_DATA_HOME": root.appending("data"),
            "XDG_RUNTIME_DIR": root.appending("runtime"), "PATH": "/usr/bin:/bin", "AUTHVAULT_KEY_CACHE_TIMEOUT": "300",
        ]
    }

    init(prefix: String, passphrase: String, tokenID: String) async throws {
        root = try TemporaryDirectory(prefix: prefix)
        self.passphrase = passphrase
        token = ""
        try await configure([])
        token = try await saveRecord(tokenID: tokenID)
    }

    /// Saves a record holding a new fresh unsigned token (its `jti` `tokenID`) from a process of its own that keeps
    /// nothing in the keyring (as a refresh or sign-in elsewhere would); answers the token.
    func saveRecord(tokenID: String) async throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let token = try TestJWT.unsigned(["iat": now, "exp": now + 3600, "jti": tokenID])
        let record: [String: Any] = [
            "profile": "default", "revision": 1, "accessToken": token, "idToken": token,
            "refreshToken": "refresh-\(tokenID)", "username": "alice", "accessTokenExpiresAt": Double(now + 3600),
        ]
        let saved = try await vaultProbe("save", stdin: try JSONSerialization.data(withJSONObject: record))
        guard saved.stdoutText.contains(#""outcome":"ok""#) else {
            throw TestFixtureError("vault-probe save: \(saved.stdoutText)")
        }
        return token
    }

    /// `vault-probe OPERATION` on the profile's record, with the passphrase and no key cache.
    func vaultProbe(_ operation: String, stdin: Data? = nil) async throws -> ProcessOutput {
        try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            [
                operation, "--backend", "file", "--directory", dataDirectory, "--logn", "10", "--cache", "none",
                "--profile", "default",
            ],
            stdin: stdin, environment: environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": passphrase]) { $1 },
            timeout: 30)
    }

    /// `authvault configure` on the file vault, for the pool the record was saved for, with `extra` arguments.
    func configure(_ extra: [String]) async throws {
        let arguments =
            ["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"] + extra
        let configured = try await BoundedProcess.run(authvault, arguments, environment: environment, timeout: 30)
        guard configured.status == 0 else { throw TestFixtureError("configure: \(configured.stderrText)") }
    }

    /// `script` under `sh -ec` in a new anonymous session keyring, with `$AUTHVAULT`, the given passphrase (if any)
    /// and `extra` variables.
    func inNewSession(_ script: String, passphrase: String? = nil, extra: [String: String] = [:]) async throws
        -> ProcessOutput
    {
        var environment = environment.merging(extra) { $1 }
        environment["AUTHVAULT"] = authvault
        environment["AUTHVAULT_VAULT_PASSPHRASE"] = passphrase
        return try await BoundedProcess.run(
            "/usr/bin/keyctl", ["session", "-", "sh", "-ec", script], environment: environment, timeout: 60)
    }

    /// Drops the test vault's key from the user keyring (it would go after AUTHVAULT_KEY_CACHE_TIMEOUT anyway).
    func lock() async throws {
        _ = try await inNewSession(#""$AUTHVAULT" vault lock"#)
    }
}
