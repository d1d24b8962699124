import AuthCrypto
import FoundationEssentials
import TokenVault

#if canImport(Glibc)
    import Glibc
#endif

/// `authvault token` on a warm session — a whole process, as git or kubectl run it — per vault backend and through a
/// running `authvault agent`, the token helpers through the agent, and `aws-credentials` on warm identity-pool
/// credentials (direct and through the agent), against `secret-tool lookup` of an item of the same size and the
/// start-up yardstick, with each process's peak resident memory beside `authvault --version`'s. The file vault's key is in the user keyring after the first run, so the warm path derives
/// nothing, also for a process outside a login session (`keyctl session -`: a fresh session keyring per run, as
/// cron, services and CI have), which runs without the passphrase to prove it. Then the agent under concurrent load.
enum TokenBenchmark {
    /// A process the benchmark runs again and again.
    private struct Command {
        let arguments: [String]
        var environment: [String]? = nil
        var input: String? = nil
    }

    /// How many tokens the agent serves before its resident memory is read.
    private static let agentRequests = 200

    /// The file profile's identity pool; its warm credentials were issued for it.
    private static let identityPool = "us-east-1:00000000-0000-4000-8000-000000000000"

    static func run(authvault: String, yardstick: String, rounds: Int) async throws -> [Row] {
        let root = try makeTemporaryDirectory(prefix: "authvault-bench-token")
        defer { try? spawnAndWait(["/bin/rm", "-rf", root]) }
        let environment =
            [
                "HOME=\(root)", "XDG_CONFIG_HOME=\(root)/config", "XDG_DATA_HOME=\(root)/data",
                "AUTHVAULT_VAULT_PASSPHRASE=benchmark passphrase", "PATH=/usr/bin:/bin",
                "AUTHVAULT_SECRET_SERVICE_TIMEOUT=\(Int(VaultBenchmarks.secretServiceTimeout.components.seconds))",
            ]
            + ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"].compactMap { name in
                ProcessInfo.processInfo.environment[name].map { "\(name)=\($0)" }
            }
        for (profile, vault) in [("file", "file"), ("keyring", "secret-service")] {
            try spawnAndWait(
                [
                    authvault, "--profile", profile, "configure", "--user-pool-id", "us-east-1_Bench",
                    "--client-id", "bench", "--vault", vault,
                ], environment: environment)
        }
        try spawnAndWait(
            [
                authvault, "--profile", "file", "configure", "--helper-host", "git.example.com",
                "--helper-host", "registry.example.com", "--helper-host", "k8s.example.com",
                "--identity-pool-id", identityPool,
            ], environment: environment)
        let fileVault = EncryptedFileVault(
            directory: "\(root)/data/authvault",
            passphrase: .fixed(SecretBytes(utf8: "benchmark passphrase")))
        try await fileVault.save(record(profile: "file"))
        // The data key leaves the user keyring with the benchmark (after the agent has stopped).
        defer { try? spawnAndWait([authvault, "vault", "lock"], environment: environment) }
        let secretService = SecretServiceVault(
            changeStamps: ChangeStamps(dataDirectory: "\(root)/data/authvault"),
            bindings: ["keyring": .init(userPoolId: "us-east-1_Bench", clientId: "bench")],
            timeout: VaultBenchmarks.secretServiceTimeout)
        try await secretService.save(record(profile: "keyring"))
        defer { Task { try? await secretService.delete(profile: "keyring") } }

        let size = record(profile: "file").serialized().count
        try spawnAndWait([
            "/bin/sh", "-c",
            "head -c \(size) /dev/zero | tr '\\\\0' x | secret-tool store --label=bench application authvault-bench item token",
        ])
        defer {
            try? spawnAndWait(["/usr/bin/secret-tool", "clear", "application", "authvault-bench", "item", "token"])
        }

        // Not at the default path ($XDG_RUNTIME_DIR/authvault/agent.sock), so that only the agent rows use it.
        let agentSocket = "\(root)/agent/agent.sock"
        let agent = try BackgroundProcess.start(
            [authvault, "agent", "--socket", agentSocket], environment: environment,
            socketPath: agentSocket)
        defer { agent.stop() }
        let throughAgent = environment + ["AUTHVAULT_AGENT_SOCKET=\(agentSocket)"]
        // What git, docker and kubectl hand their helpers (kubectl names the cluster's server: provideClusterInfo).
        let gitRequest = "\(root)/git-request"
        let dockerRequest = "\(root)/docker-request"
        try spawnAndWait([
            "/bin/sh", "-c",
            "printf 'protocol=https\\nhost=git.example.com\\n\\n' > \(gitRequest); "
                + "printf 'https://registry.example.com\\n' > \(dockerRequest)",
        ])
        let execInfo =
            #"KUBERNETES_EXEC_INFO={"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"https://k8s.example.com"}}}"#

        let commands = [
            Command(arguments: ["/usr/bin/secret-tool", "lookup", "application", "authvault-bench", "item", "token"]),
            Command(arguments: [yardstick]),
            Command(arguments: [authvault, "--version"]),
            Command(arguments: [authvault, "--profile", "file", "token"], environment: environment),
            Command(
                arguments: ["/usr/bin/keyctl", "session", "-", authvault, "--profile", "file", "token"],
                environment: environment.filter { !$0.hasPrefix("AUTHVAULT_VAULT_PASSPHRASE=") }),
            Command(arguments: [authvault, "--profile", "keyring", "token"], environment: environment),
            Command(arguments: [authvault, "--profile", "file", "token"], environment: throughAgent),
            Command(arguments: [authvault, "git-credential", "get"], environment: throughAgent, input: gitRequest),
            Command(
                arguments: [authvault, "docker-credential", "get"], environment: throughAgent, input: dockerRequest),
            Command(
                arguments: [authvault, "kubectl-credential", "--profile", "file"],
                environment: throughAgent + [execInfo]),
            Command(arguments: [authvault, "--profile", "file", "aws-credentials"], environment: environment),
            Command(arguments: [authvault, "--profile", "file", "aws-credentials"], environment: throughAgent),
        ]
        // The agent's memory once it has served as many requests as a working day's tools might make.
        for _ in 0..<agentRequests {
            try spawnAndWait([authvault, "--profile", "file", "token"], environment: throughAgent)
        }
        let agentResident = residentSetSize(of: agent.pid)

        // Interleaved, so that machine noise hits all alike; three unmeasured rounds first.
        var samples = Array(repeating: Samples(), count: commands.count)
        for round in -3..<rounds {
            for (index, command) in commands.enumerated() {
                let start = monotonicNow()
                try spawnAndWait(command.arguments, environment: command.environment, input: command.input)
                if round >= 0 { samples[index].add(monotonicNow() - start) }
            }
        }
        // Memory apart from time (GNU time runs each), a few rounds: the figures hardly move.
        var peaks = Array(repeating: Samples(), count: commands.count)
        for _ in 0..<5 {
            for (index, command) in commands.enumerated() {
                peaks[index].add(
                    Double(
                        try peakResidentSetSize(
                            command.arguments, environment: command.environment, input: command.input)))
            }
        }
        let lookup = samples[0]
        let yardstickSamples = samples[1]
        let peer = "secret-tool lookup " + formatSpread(lookup)
        let version = peaks[2].median
        let versionPeer = "authvault --version " + formatMegabytes(peaks[2].median)
        let memory = [
            Row(
                name: "peak RSS: authvault token, file vault (warm) (goal <= 1.2x --version)",
                ours: formatMegabytes(peaks[3].median),
                peer: versionPeer, ratio: ratio(peaks[3].median, over: version)),
            Row(
                name: "peak RSS: authvault token, secret service", ours: formatMegabytes(peaks[5].median),
                peer: versionPeer, ratio: ratio(peaks[5].median, over: version)),
            Row(
                name: "RSS: the agent after \(agentRequests) requests (goal <= 1.5x --version's peak)",
                ours: agentResident.map { formatMegabytes(Double($0)) } ?? "n/a", peer: versionPeer,
                ratio: agentResident.map { ratio(Double($0), over: version) } ?? "n/a"),
        ]
        let names = [
            "authvault token, file vault (warm)",
            "authvault token, file vault (warm), outside a login session: keyctl session - (goal <= 0.35x secret-tool)",
            "authvault token, secret service (goal <= 1.0x secret-tool)",
            "authvault token, through the agent (goal <= 0.25x secret-tool)",
            "git-credential get, through the agent (same goals)",
            "docker-credential get, through the agent (same goals)",
            "kubectl-credential, through the agent (same goals)",
            "authvault aws-credentials, file vault (warm)",
            "authvault aws-credentials, through the agent (same goals as token)",
        ]
        return zip(names, samples[3...]).map { name, ours in
            Row(
                name: name, ours: formatSpread(ours), peer: peer, ratio: ratio(ours.median, over: lookup.median),
                yardstick: yardstickColumn(ours: ours, yardstick: yardstickSamples))
        } + memory + [try AgentThroughputBenchmark.run(agentSocket: agentSocket, profile: "file", directory: root)]
    }

    /// A signed-in record whose access token is fresh for an hour (unsigned: cached tokens are only decoded).
    private static func record(profile: String) -> CredentialRecord {
        let now = Int(monotonicWallClock())
        func jwt(_ marker: String) -> String {
            let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"bench"}"#.utf8))
            let claims = Base64URL.encode(
                Array(
                    #"{"iat":\#(now),"exp":\#(now + 3600),"jti":"\#(marker)","pad":"\#(String(repeating: "p", count: 700))"}"#
                        .utf8))
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
        // Identity-pool credentials with an hour left: `aws-credentials` serves them without a call.
        record.identityId = "us-east-1:00000000-0000-4000-8000-0000000000b1"
        record.identityPoolId = identityPool
        record.awsCredentials = AWSCredentialEntry(
            accessKeyId: "ASIABENCHMARK0000001", secretAccessKey: SecretBytes(utf8: String(repeating: "k", count: 40)),
            sessionToken: SecretBytes(utf8: String(repeating: "t", count: 900)), expiresAt: Double(now + 3600),
            scope: AWSCredentialScope(identityPoolId: identityPool, roleARN: nil))
        return record
    }

    private static func monotonicWallClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec)
    }
}
