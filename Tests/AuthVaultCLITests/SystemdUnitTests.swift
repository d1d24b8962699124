import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// Examples/systemd: the user units as files (what they say, and what systemd-analyze thinks of them), and the agent
/// started the way they start it — on a socket passed on descriptor 3, by Tests/TestSupport/Scripts/socket_activate.py
/// doing what systemd does.
@Suite struct SystemdUnitTests {
    static let socketUnit = "Examples/systemd/authvault-agent.socket"
    static let serviceUnit = "Examples/systemd/authvault-agent.service"
    static let hasSystemdAnalyze = FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")

    @Test func theUnitsListenWhereTheAgentDoesAndStartIt() async throws {
        let socket = try UnitFile(PackageFiles.text(Self.socketUnit))
        #expect(socket["Socket", "ListenStream"] == ["%t/authvault/agent.sock"])
        #expect(socket["Socket", "SocketMode"] == ["0600"])
        #expect(socket["Socket", "DirectoryMode"] == ["0700"])
        #expect(socket["Socket", "Accept"].allSatisfy { $0 == "no" }, "one agent for every connection")
        #expect(socket["Install", "WantedBy"] == ["sockets.target"])

        let service = try UnitFile(PackageFiles.text(Self.serviceUnit))
        let command = try #require(service.execStart)
        #expect(command.first?.hasSuffix("/authvault") == true)
        #expect(Array(command.dropFirst()) == ["agent"])
        #expect(service["Unit", "Requires"] == ["authvault-agent.socket"])

        // `authvault agent` with no socket given listens where the socket unit puts its socket (%t is
        // $XDG_RUNTIME_DIR for a user unit).
        let cli = try HeadlessCLI()
        let runtime = try #require(cli.environment["XDG_RUNTIME_DIR"])
        let agent = try AgentProcess.start(
            cli.authvault, Array(command.dropFirst()), environment: cli.environment,
            log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(socket["Socket", "ListenStream"][0].replacingOccurrences(of: "%t", with: runtime))
        #expect(try await agent.terminate(timeout: 10) == 0)
    }

    /// On copies whose ExecStart names the built binary (the units name the installed one, which CI does not have):
    /// no error and no warning.
    @Test(.enabled(if: hasSystemdAnalyze, "systemd-analyze is not installed (Debian package systemd)"))
    func systemdAnalyzeFindsNothingToSayAboutTheUnits() async throws {
        let directory = try TemporaryDirectory(prefix: "systemd-units")
        let runtime = directory.appending("runtime")
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let service = try PackageFiles.text(Self.serviceUnit)
        let installed = try #require(try UnitFile(service).execStart?.first)
        let socketCopy = directory.appending("authvault-agent.socket")
        let serviceCopy = directory.appending("authvault-agent.service")
        try PackageFiles.text(Self.socketUnit).write(toFile: socketCopy, atomically: true, encoding: .utf8)
        try service.replacingOccurrences(of: installed, with: BuiltProducts.executable("authvault"))
            .write(toFile: serviceCopy, atomically: true, encoding: .utf8)

        // The user manager it loads the units into needs a runtime directory, and nothing else of a session.
        let output = try await BoundedProcess.run(
            "/usr/bin/systemd-analyze", ["verify", "--user", socketCopy, serviceCopy],
            environment: ["XDG_RUNTIME_DIR": runtime, "HOME": directory.path, "PATH": "/usr/bin:/bin"],
            timeout: 25)
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(output.stderrText.isEmpty, "\(output.stderrText)")
    }

    /// The service unit's ExecStart on the socket unit's socket, passed the way systemd passes it: `authvault token`
    /// (no passphrase, so only the agent can answer; no socket given, so it looks at the default path) gets the
    /// stored token through it. SIGTERM ends the agent with status 0 and leaves the socket, which is the manager's:
    /// the next client's connection starts a new agent, which answers it.
    @Test func anAgentStartedBySocketActivationServesTokensAndLeavesTheSocketToSystemd() async throws {
        let pool = try await CognitoPool.make()
        try await pool.createUser("dana", password: "Socket-Passed-3!")
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        #expect(try await cli.login("dana", lines: ["Socket-Passed-3!"]).status == 0)
        let stored = try #require(try await cli.storedRecord()?["accessToken"] as? String)

        let runtime = try #require(cli.environment["XDG_RUNTIME_DIR"])
        let socketPath = try UnitFile(PackageFiles.text(Self.socketUnit))["Socket", "ListenStream"][0]
            .replacingOccurrences(of: "%t", with: runtime)
        let command = try #require(try UnitFile(PackageFiles.text(Self.serviceUnit)).execStart)
        let launcher = try SocketActivation.start(
            socketPath: socketPath,
            command: [cli.authvault] + command.dropFirst(),
            environment: cli.environment, log: cli.root + "/agent.log")
        defer { launcher.kill() }
        let first = try await launcher.waitForLine("started ")
        let mode = try FileManager.default.attributesOfItem(atPath: socketPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let withoutPassphrase = cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let served = try await BoundedProcess.run(cli.authvault, ["token"], environment: withoutPassphrase, timeout: 25)
        #expect(served.status == 0, "\(served.stderrText) agent: \(launcher.log)")
        expectSecret(stored + "\n", equals: served.stdoutText, "the stored token, through the agent")
        #expect(launcher.log.contains("agent listening on \(socketPath)"))

        let agentPID = try #require(Int32(first.dropFirst("started ".count)))
        try #require(kill(agentPID, SIGTERM) == 0)
        #expect(try await launcher.waitForLine("exited ") == "exited \(agentPID) 0")
        #expect(FileManager.default.fileExists(atPath: socketPath), "the socket file is the manager's, and stays")

        let again = try await BoundedProcess.run(cli.authvault, ["token"], environment: withoutPassphrase, timeout: 25)
        #expect(again.status == 0, "\(again.stderrText) agent: \(launcher.log)")
        expectSecret(stored + "\n", equals: again.stdoutText)
        let second = try await launcher.waitForLine("started ")
        #expect(second != first, "a new agent answered")
        cli.expectNoSecretLeaks()
    }

    /// A socket passed on descriptor 3 that is bound but not listening (a unit with Accept=yes would pass a
    /// connection instead): the agent refuses to start and says why.
    @Test func aPassedSocketThatIsNotListeningIsRefused() async throws {
        let cli = try HeadlessCLI()
        let socketPath = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let launcher = try SocketActivation.start(
            socketPath: socketPath, command: [cli.authvault, "agent"], listening: false,
            environment: cli.environment, log: cli.root + "/agent.log")
        defer { launcher.kill() }
        let started = try await launcher.waitForLine("started ")
        #expect(try await launcher.waitForLine("exited ") == "exited \(started.dropFirst("started ".count)) 1")
        #expect(launcher.log.contains("descriptor 3 is not listening"), "\(launcher.log)")
    }
}

/// A systemd unit file's assignments by section and key, in order (a key may be assigned more than once).
/// Comments, blank lines and line continuations as systemd.syntax(7) has them.
struct UnitFile {
    private var sections: [String: [(key: String, value: String)]] = [:]

    init(_ text: String) throws {
        var section: String?
        var pending = ""
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = pending + rawLine.trimmingCharacters(in: .whitespaces)
            pending = ""
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasSuffix("\\") {
                pending = String(line.dropLast()) + " "
                continue
            }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let section, let equals = line.firstIndex(of: "=") else {
                throw TestFixtureError("not a unit file line: \(line)")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[section, default: []].append((key, value))
        }
    }

    subscript(section: String, key: String) -> [String] {
        (sections[section] ?? []).filter { $0.key == key }.map(\.value)
    }

    /// The service's command as words (no quoting is used in these units), without systemd's prefix characters.
    var execStart: [String]? {
        guard let value = self["Service", "ExecStart"].last else { return nil }
        let words = value.split(separator: " ").map(String.init)
        return words.first.map { [String($0.drop { "-@:+!".contains($0) })] + words.dropFirst() }
    }
}

/// Tests/TestSupport/Scripts/socket_activate.py running a command as systemd runs a socket unit's service. Its
/// "started PID" and "exited PID STATUS" lines are collected as they come; the command's standard error goes to
/// a file.
final class SocketActivation: Sendable {
    private let process: Process
    private let logPath: String
    private let lines = Locked<[String]>([])
    /// Lines already handed to `waitForLine`.
    private let taken = Locked(0)

    private init(process: Process, logPath: String) {
        self.process = process
        self.logPath = logPath
    }

    static func start(
        socketPath: String, command: [String], listening: Bool = true, environment: [String: String],
        log: String
    ) throws -> SocketActivation {
        guard FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw TestFixtureError("cannot create \(log)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PeerPython.path)
        process.arguments =
            [ScriptServer.scriptPath("socket_activate.py")] + (listening ? [] : ["--not-listening"])
            + [socketPath, "--"] + command
        process.environment = environment
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let launcher = SocketActivation(process: process, logPath: log)
        try process.run()
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var buffered = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffered.append(chunk)
                while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffered[..<newline], as: UTF8.self)
                    buffered.removeSubrange(...newline)
                    launcher.lines.withLock { $0.append(line) }
                }
            }
        }
        return launcher
    }

    /// What the launched commands wrote on standard error.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The next line not yet taken, which must start with `prefix`.
    func waitForLine(_ prefix: String, timeout: TimeInterval = 20) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let next = taken.withLock { taken in
                lines.withLock { lines -> String? in
                    guard taken < lines.count else { return nil }
                    defer { taken += 1 }
                    return lines[taken]
                }
            }
            if let next {
                guard next.hasPrefix(prefix) else {
                    throw TestFixtureError("socket_activate.py said '\(next)', not '\(prefix)...'")
                }
                return next
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFixtureError("socket_activate.py said no '\(prefix)...' within \(timeout) s: \(log)")
    }

    /// The launcher and every command of it still running (SIGKILL: the test runner's children may have SIGTERM
    /// blocked).
    func kill() {
        let said = lines.withLock { $0 }
        let exited = Set(said.filter { $0.hasPrefix("exited ") }.map { $0.split(separator: " ")[1] })
        let running = said.filter { $0.hasPrefix("started ") }.map { $0.split(separator: " ")[1] }.filter {
            !exited.contains($0)
        }
        for pid in running.compactMap({ Int32($0) }) { Glibc.kill(pid, SIGKILL) }
        process.killAndReap()
    }
}
