import Foundation
import Testing
import TestSupport

/// A warm `authvault token` on the file vault, with no agent, outside a login session (`keyctl session -`, the key
/// in the user keyring from an earlier process), as Debian's strace sees it: the configuration opened once,
/// `vault.key` and the record once each, no openssl.cnf, no thread started. libcurl, when a command needs it,
/// still reads the system's TLS settings.
@Suite(.serialized, .enabled(if: TracingTools.present && !SanitizerOptions.areSet,
                             "needs keyctl and strace; the sanitizers' runtimes start threads of their own"))
struct WarmTokenPathTests {
    let root: TemporaryDirectory
    let authvault = BuiltProducts.executable("authvault")
    let passphrase = "warm path passphrase"
    let token: String

    var dataDirectory: String { root.appending("data") + "/authvault" }
    var environment: [String: String] {
        ["HOME": root.path, "XDG_CONFIG_HOME": root.appending("config"), "XDG_DATA_HOME": root.appending("data"),
         "XDG_RUNTIME_DIR": root.appending("runtime"), "PATH": "/usr/bin:/bin", "AUTHVAULT_KEY_CACHE_TIMEOUT": "300"]
    }

    init() async throws {
        root = try TemporaryDirectory(prefix: "authvault-warm-token")
        let now = Int(Date().timeIntervalSince1970)
        token = try TestJWT.unsigned(["iat": now, "exp": now + 3600, "jti": "warm-path"])
        for arguments in [["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file"],
                          ["configure", "--profile", "remote", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1",
                           "--vault", "file", "--endpoint", "https://127.0.0.1:9"]] {
            let configured = try await BoundedProcess.run(authvault, arguments, environment: environment, timeout: 30)
            guard configured.status == 0 else { throw TestFixtureError("configure: \(configured.stderrText)") }
        }
        let record: [String: Any] = ["profile": "default", "revision": 1, "accessToken": token, "idToken": token,
                                     "refreshToken": "refresh-warm", "username": "alice", "accessTokenExpiresAt": Double(now + 3600)]
        let saved = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            ["save", "--backend", "file", "--directory", dataDirectory, "--logn", "10", "--cache", "none", "--profile", "default"],
            stdin: try JSONSerialization.data(withJSONObject: record),
            environment: environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": passphrase]) { $1 }, timeout: 30)
        guard saved.stdoutText.contains(#""outcome":"ok""#) else { throw TestFixtureError("vault-probe save: \(saved.stdoutText)") }
    }

    /// `script` under `sh -ec` in a new anonymous session keyring, with `$AUTHVAULT` and `$TRACE` set.
    func inNewSession(_ script: String, passphrase: String? = nil, extra: [String: String] = [:]) async throws -> ProcessOutput {
        var environment = environment.merging(extra) { $1 }
        environment["AUTHVAULT"] = authvault
        environment["TRACE"] = root.appending("strace.out")
        environment["AUTHVAULT_VAULT_PASSPHRASE"] = passphrase
        return try await BoundedProcess.run("/usr/bin/keyctl", ["session", "-", "sh", "-ec", script], environment: environment, timeout: 60)
    }

    /// The traced lines (strace -f: every thread's and child's calls).
    func traced() throws -> [Substring] {
        try String(contentsOfFile: root.appending("strace.out"), encoding: .utf8).split(separator: "\n")
    }

    @Test func aWarmTokenOpensEachFileOnceAndStartsNoThread() async throws {
        let warmUp = try await inNewSession(#""$AUTHVAULT" token >/dev/null"#, passphrase: passphrase)
        #expect(warmUp.status == 0, "\(warmUp.stderrText)")
        // No passphrase: only the key cached in the user keyring opens the vault.
        let run = try await inNewSession(#"strace -f -qq -e trace=openat,open,clone,clone3,fork,vfork -o "$TRACE" "$AUTHVAULT" token"#)
        _ = try await inNewSession(#""$AUTHVAULT" vault lock"#)
        #expect(run.status == 0, "\(run.stderrText)")
        expectSecret(run.stdoutText.trimmingCharacters(in: .newlines), equals: token, "the warm token")
        let lines = try traced()
        func opened(_ suffix: String) -> Int { lines.count { $0.contains("open") && $0.contains(suffix + "\"") } }
        #expect(opened("/authvault/config.json") == 1, "\(lines)")
        #expect(opened("/vault.key") <= 1, "\(lines)")
        #expect(opened("/default.record") == 1, "\(lines)")
        #expect(!lines.contains { $0.contains("openssl.cnf") }, "\(lines)")
        #expect(!lines.contains { $0.contains("clone") || $0.contains("fork") }, "\(lines)")
    }

    /// The token path reads no openssl.cnf, but a command that reaches the network through libcurl reads the one
    /// OpenSSL would (here `$OPENSSL_CONF`), after libcurl set up its TLS.
    @Test func libcurlStillReadsTheSystemsOpenSSLConfiguration() async throws {
        let configuration = root.appending("openssl.cnf")
        try "openssl_conf = openssl_init\n[openssl_init]\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        let run = try await inNewSession(
            #"printf 'a-password\n' | strace -f -qq -e trace=openat -o "$TRACE" "$AUTHVAULT" --profile remote login --password --username alice --password-stdin || true"#,
            passphrase: passphrase, extra: ["OPENSSL_CONF": configuration, "AUTHVAULT_NON_INTERACTIVE": "1"])
        #expect(run.status == 0, "\(run.stderrText)")
        _ = try await inNewSession(#""$AUTHVAULT" vault lock"#)
        let lines = try traced()
        #expect(lines.contains { $0.contains("libcurl") }, "the command did reach libcurl: \(run.stderrText)")
        #expect(lines.contains { $0.contains(configuration) }, "\(lines)")
    }
}

private enum TracingTools {
    static let present = ["keyctl", "strace"].allSatisfy { (try? ProcessRunner.which($0)) != nil }
        && FileManager.default.fileExists(atPath: "/proc/keys")
}
