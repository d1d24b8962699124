import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// The real `authvault agent` process on a signed-in profile whose Cognito calls go through a fault proxy in front
/// of moto, serving helper processes that have no vault passphrase of their own: without the agent each of them
/// would fail with "vault locked" (exit 4), so every answer they print came through it.
@Suite struct AgentEndToEndTests {
    static let gitHost = "git.example.test"

    /// 50 helper processes at once (`token` and `git-credential get`, mixed) on an expired session: all print the
    /// same new token, moto saw exactly one refresh, and the agent read the vault passphrase (from a file whose
    /// opens the test counts) exactly once. Then SIGTERM, with an idle client still connected: the
    /// agent exits 0 promptly (under 3 s) and its socket is gone.
    @Test func fiftyHelpersOnAnExpiredSessionShareOneRefreshAndOneUnlock() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let hosts = try await cli.run(["configure", "--helper-host", Self.gitHost])
        #expect(hosts.status == 0, "\(hosts.stderrText)")
        let aged = try await cli.ageTokens(expiringIn: -120)
        let stub = try #require(aged["accessToken"] as? String)
        let baseline = try await profile.proxy.records().count

        // Outside the profile's directories, which the leak sweep reads: this file holds the passphrase by design.
        let secrets = try TemporaryDirectory(prefix: "agent-passphrase")
        let passphrase = try WatchedPassphraseFile(
            path: secrets.appending("vault-passphrase"), passphrase: HeadlessCLI.vaultPassphrase)
        var agentEnvironment = cli.environment
        agentEnvironment["AUTHVAULT_VAULT_PASSPHRASE"] = nil
        agentEnvironment["AUTHVAULT_VAULT_PASSPHRASE_FILE"] = passphrase.path
        let agent = try AgentProcess.start(cli.authvault, environment: agentEnvironment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        try await agent.waitForSocket(socket)

        let clientEnvironment = cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let results = try await withThrowingTaskGroup(of: (Int, ProcessOutput).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let output =
                        index.isMultiple(of: 2)
                        ? try await BoundedProcess.run(
                            cli.authvault, ["token"], environment: clientEnvironment, timeout: 25)
                        : try await BoundedProcess.run(
                            cli.authvault, ["git-credential", "get"],
                            stdin: Data("protocol=https\nhost=\(Self.gitHost)\n\n".utf8),
                            environment: clientEnvironment, timeout: 25)
                    return (index, output)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(
            results.allSatisfy { $0.1.status == 0 },
            "\(results.map(\.1.status)) \(Set(results.map(\.1.stderrText).filter { !$0.isEmpty })); agent: \(agent.log)"
        )
        #expect(results.allSatisfy { $0.1.stderr.isEmpty })
        let served = results.map { index, output in
            index.isMultiple(of: 2)
                ? output.stdoutText.trimmingCharacters(in: .newlines) : Self.password(in: output.stdoutText)
        }
        for token in Set(served) { cli.remember(token, as: "a token served through the agent") }
        let distinct = Set(served).count
        #expect(distinct == 1, "every helper printed the same token; \(Self.describe(served))")
        let token = served.first ?? ""
        expectSecret(token, differsFrom: stub, "a new token, not the expired one")
        let owner = try await profile.pool.owner(ofAccessToken: token)
        #expect(owner == SignedInProfile.username, "a token moto issued")
        #expect(try await profile.operations(after: baseline) == ["InitiateAuth"], "exactly one refresh upstream")
        let stored = try await cli.storedRecord()
        expectSecret(stored?["accessToken"] as? String, equals: token, "the agent saved the refreshed session")
        #expect(passphrase.opens == 1, "the agent read the passphrase, and derived the key, once")

        // An idle client must not hold the agent up: stopping ends every connection that owes no reply.
        let idle = try RawUnixConnection(path: socket)
        let stopped = ContinuousClock.now
        let status = try await agent.terminate(timeout: 10)
        let took = ContinuousClock.now - stopped
        idle.close()
        #expect(status == 0)
        #expect(took < .seconds(3), "SIGTERM to exit took \(took)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
        #expect(agent.log.contains("agent stopped"))
        cli.expectNoSecretLeaks()
    }

    /// Each distinct token by its expiry and which helpers printed it (by index: even `token`, odd git), no token.
    static func describe(_ served: [String]) -> String {
        Dictionary(grouping: served.indices, by: { served[$0] }).map { token, indices in
            "exp \(TestJWT.claims(of: token)?["exp"] ?? "none (\(token.count) characters)") from \(indices)"
        }.joined(separator: "; ")
    }

    /// The `password=` value of a git credential answer.
    static func password(in answer: String) -> String {
        answer.split(separator: "\n").first { $0.hasPrefix("password=") }.map {
            String($0.dropFirst("password=".count))
        } ?? ""
    }
}

/// `authvault agent` as its own process, its standard error in a file.
final class AgentProcess: @unchecked Sendable {
    private let process: Process
    private let logPath: String

    private init(process: Process, logPath: String) {
        self.process = process
        self.logPath = logPath
    }

    static func start(
        _ authvault: String, _ arguments: [String] = ["agent"], environment: [String: String],
        log: String, currentDirectory: String? = nil
    ) throws -> AgentProcess {
        guard FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw TestFixtureError("cannot create \(log)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: authvault)
        process.arguments = arguments
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        return AgentProcess(process: process, logPath: log)
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    func waitForSocket(_ path: String) async throws {
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: path) {
            guard process.isRunning else { throw TestFixtureError("the agent exited: \(log)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestFixtureError("no agent socket at \(path): \(log)")
        }
    }

    /// SIGTERM (or `signal`), then its exit status, or the signal that ended it (SIGKILL and a failure after
    /// `timeout` seconds).
    func terminate(with signal: Int32 = SIGTERM, timeout: TimeInterval) async throws -> Int32 {
        Glibc.kill(process.processIdentifier, signal)
        let process = self.process
        let exited = try await OffPool.run { () -> Bool in
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(2_000) }
            return !process.isRunning
        }
        guard exited else {
            kill()
            throw TestFixtureError("the agent did not exit within \(timeout) s of signal \(signal)")
        }
        return process.terminationStatus
    }

    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    deinit {
        process.killAndReap()
    }
}

/// The vault passphrase in a private file, every open of it counted by the kernel (inotify): with no derived key
/// kept in the user keyring (the test's environment turns that off), each read of it is one key derivation.
final class WatchedPassphraseFile: Sendable {
    let path: String
    private let watch: Int32
    private let seen = Locked(0)

    init(path: String, passphrase: String) throws {
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data((passphrase + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        else {
            throw TestFixtureError("cannot create \(path)")
        }
        self.path = path
        watch = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard watch >= 0, inotify_add_watch(watch, path, UInt32(IN_OPEN)) >= 0 else {
            throw TestFixtureError("cannot watch \(path): errno \(errno)")
        }
    }

    deinit { close(watch) }

    /// How many times the file was opened since it was made.
    var opens: Int {
        seen.withLock { count in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let length = read(watch, &buffer, buffer.count)
                guard length > 0 else { return count }
                // struct inotify_event: wd, mask, cookie, len (4 bytes each), then `len` bytes of name.
                var offset = 0
                while offset + 16 <= length {
                    let field = { (at: Int) in
                        buffer[offset + at..<offset + at + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
                    }
                    if UInt32(field(4)) & UInt32(IN_OPEN) != 0 { count += 1 }
                    offset += 16 + field(12)
                }
            }
        }
    }
}

/// A client connection to a Unix socket that sends nothing.
final class RawUnixConnection: @unchecked Sendable {
    private var descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else {
            throw TestFixtureError("cannot connect to \(path): errno \(errno)")
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
