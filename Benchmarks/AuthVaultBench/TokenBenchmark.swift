import AuthCrypto
import FoundationEssentials
import TokenVault
#if canImport(Glibc)
import Glibc
#endif

/// `authvault token` on a warm session — a whole process, as git or kubectl run it — per vault backend and through a
/// running `authvault agent`, against `secret-tool lookup` of an item of the same size. The file vault's key is in
/// the session keyring after the first run, so the warm path derives nothing. Then the agent under concurrent load.
enum TokenBenchmark {
    static func run(authvault: String, rounds: Int) async throws -> [Row] {
        let root = try makeTemporaryDirectory(prefix: "authvault-bench-token")
        defer { try? spawnAndWait(["/bin/rm", "-rf", root]) }
        let environment = [
            "HOME=\(root)", "XDG_CONFIG_HOME=\(root)/config", "XDG_DATA_HOME=\(root)/data",
            "AUTHVAULT_VAULT_PASSPHRASE=benchmark passphrase", "PATH=/usr/bin:/bin",
        ] + ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"].compactMap { name in
            ProcessInfo.processInfo.environment[name].map { "\(name)=\($0)" }
        }
        for (profile, vault) in [("file", "file"), ("keyring", "secret-service")] {
            try spawnAndWait([authvault, "--profile", profile, "configure", "--user-pool-id", "us-east-1_Bench",
                              "--client-id", "bench", "--vault", vault], environment: environment)
        }
        let fileVault = EncryptedFileVault(directory: "\(root)/data/authvault",
                                           passphrase: .fixed(SecretBytes(utf8: "benchmark passphrase")))
        try await fileVault.save(record(profile: "file"))
        let secretService = SecretServiceVault(revisions: RecordRevisions(dataDirectory: "\(root)/data/authvault"), bindings: ["keyring": .init(userPoolId: "us-east-1_Bench", clientId: "bench")])
        try await secretService.save(record(profile: "keyring"))
        defer { Task { try? await secretService.delete(profile: "keyring") } }

        let size = record(profile: "file").serialized().count
        try spawnAndWait(["/bin/sh", "-c", "head -c \(size) /dev/zero | tr '\\\\0' x | secret-tool store --label=bench application authvault-bench item token"])
        defer { try? spawnAndWait(["/usr/bin/secret-tool", "clear", "application", "authvault-bench", "item", "token"]) }

        // Not at the default path ($XDG_RUNTIME_DIR/authvault/agent.sock), so that only the agent row uses it.
        let agentSocket = "\(root)/agent/agent.sock"
        let agent = try BackgroundProcess.start([authvault, "agent", "--socket", agentSocket], environment: environment,
                                                socketPath: agentSocket)
        defer { agent.stop() }
        let throughAgent = environment + ["AUTHVAULT_AGENT_SOCKET=\(agentSocket)"]

        var lookup = Samples(), file = Samples(), keyring = Samples(), agentPath = Samples()
        for _ in 0..<3 {
            try spawnAndWait([authvault, "--profile", "file", "token"], environment: environment)
            try spawnAndWait([authvault, "--profile", "keyring", "token"], environment: environment)
            try spawnAndWait([authvault, "--profile", "file", "token"], environment: throughAgent)
        }
        // Interleaved, so that machine noise hits all four alike.
        for _ in 0..<rounds {
            lookup.add(try timed { try spawnAndWait(["/usr/bin/secret-tool", "lookup", "application", "authvault-bench", "item", "token"]) })
            file.add(try timed { try spawnAndWait([authvault, "--profile", "file", "token"], environment: environment) })
            keyring.add(try timed { try spawnAndWait([authvault, "--profile", "keyring", "token"], environment: environment) })
            agentPath.add(try timed { try spawnAndWait([authvault, "--profile", "file", "token"], environment: throughAgent) })
        }
        let peer = "secret-tool lookup " + formatSpread(lookup)
        return [
            Row(name: "authvault token, file vault (warm)", ours: formatSpread(file), peer: peer,
                ratio: ratio(file.median, over: lookup.median)),
            Row(name: "authvault token, secret service", ours: formatSpread(keyring), peer: peer,
                ratio: ratio(keyring.median, over: lookup.median)),
            Row(name: "authvault token, through the agent (goal <= 1/4, < 5 ms)", ours: formatSpread(agentPath), peer: peer,
                ratio: ratio(agentPath.median, over: lookup.median)),
            try AgentThroughputBenchmark.run(agentSocket: agentSocket, profile: "file", directory: root),
        ]
    }

    /// A signed-in record whose access token is fresh for an hour (unsigned: cached tokens are only decoded).
    private static func record(profile: String) -> CredentialRecord {
        let now = Int(monotonicWallClock())
        func jwt(_ marker: String) -> String {
            let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"bench"}"#.utf8))
            let claims = Base64URL.encode(Array(#"{"iat":\#(now),"exp":\#(now + 3600),"jti":"\#(marker)","pad":"\#(String(repeating: "p", count: 700))"}"#.utf8))
            return "\(header).\(claims).\(String(repeating: "s", count: 342))"
        }
        var record = CredentialRecord(profile: profile)
        record.accessToken = SecretBytes(utf8: jwt("access"))
        record.idToken = SecretBytes(utf8: jwt("id"))
        record.refreshToken = SecretBytes(utf8: String(repeating: "r", count: 1_800))
        record.accessTokenExpiresAt = Double(now + 3600)
        record.idTokenExpiresAt = Double(now + 3600)
        record.identity = UserIdentity(username: "bench-user", email: "bench@example.com")
        record.origin = .userPoolAPI
        return record
    }

    private static func timed(_ body: () throws -> Void) rethrows -> Double {
        let start = monotonicNow()
        try body()
        return monotonicNow() - start
    }

    private static func monotonicWallClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec)
    }
}
