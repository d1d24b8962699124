import Foundation

/// A private D-Bus session bus for Secret Service tests, with isolated HOME and XDG directories, and optionally a
/// Secret Service on it: a real gnome-keyring-daemon (login collection unlocked with a test password), or a name
/// owner that never answers. The bus has no service activation, so nothing is started behind the test's back and
/// no prompter exists (unlock prompts fail at once). Every process a test runs through `environment` sees only
/// this bus and these directories, never the real user's keyring or home. Everything stops when released.
public final class SecretServiceSession: @unchecked Sendable {
    public enum Setup: Sendable {
        /// No session bus at all.
        case noBus
        /// A bus with nobody owning org.freedesktop.secrets.
        case busOnly
        /// gnome-keyring-daemon --components=secrets, its login collection unlocked.
        case gnomeKeyring
        /// Tests/TestSupport/Scripts/silent_secret_service.py: owns the name, never answers.
        case silentOwner
    }

    public let root: TemporaryDirectory
    private let setup: Setup
    /// HOME, XDG_* and DBUS_SESSION_BUS_ADDRESS (absent for `.noBus`), plus PATH and the sanitizers' options.
    public private(set) var environment: [String: String]
    private var children: [InteractiveProcess] = []

    /// The packages these tests need, for a clear skip message.
    public static let requiredTools = ["dbus-daemon", "dbus-send", "gnome-keyring-daemon", "secret-tool"]

    public static var isSupported: Bool {
        requiredTools.allSatisfy { (try? ProcessRunner.which($0)) != nil }
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    }

    public static var scriptsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts").path
    }

    public init(_ setup: Setup) throws {
        root = try TemporaryDirectory(prefix: "authvault-ss")
        self.setup = setup
        // With the sanitizers' options (`make sanitize`), for the processes started from this environment directly.
        var environment =
            SanitizerOptions.added(to: [
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "LANG": "C.UTF-8",
            ]) ?? [:]
        for (variable, directory) in [
            ("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
            ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state"),
            ("XDG_RUNTIME_DIR", "runtime"),
        ] {
            let path = root.appending(directory)
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            environment[variable] = path
        }
        self.environment = environment
        try start()
    }

    private func start() throws {
        guard case .noBus = setup else {
            try startBus()
            switch setup {
            case .gnomeKeyring: try startGnomeKeyring()
            case .silentOwner: try startSilentOwner()
            case .noBus, .busOnly: break
            }
            return
        }
    }

    /// Kills the bus daemon with SIGKILL: every connection on it, a call in flight included, is cut.
    public func killBus() {
        children.first?.kill(signal: SIGKILL)
    }

    /// Stops (SIGSTOP) or resumes (SIGCONT) the Secret Service: stopped, it takes calls and answers none.
    public func suspendSecretService(_ suspended: Bool) {
        guard children.count > 1, children[1].isRunning else { return }
        kill(children[1].processIdentifier, suspended ? SIGSTOP : SIGCONT)
    }

    /// Everything stopped and started again on the same address and files: gnome-keyring reads back its login
    /// collection from HOME.
    public func restart() throws {
        suspendSecretService(false)
        stopChildren()
        try start()
    }

    /// Runs a command with this session's environment.
    public func run(
        _ executable: String, _ arguments: [String] = [], stdin: Data? = nil,
        timeout: TimeInterval = 30
    ) throws -> ProcessOutput {
        try ProcessRunner.run(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
    }

    /// Unlocks the default collection with the login password (gnome-keyring's own interface: no prompter).
    public func unlockDefaultCollection() throws {
        let output = try run(
            "/usr/bin/python3", ["\(Self.scriptsDirectory)/default_collection.py", "unlock"],
            stdin: Data((Self.loginPassword + "\n").utf8))
        guard output.status == 0, output.stdoutText.contains("unlocked") else {
            throw TestFixtureError("unlocking the default collection failed: \(output.stderrText)")
        }
    }

    /// Locks the default collection through the Secret Service's `Lock` method.
    public func lockDefaultCollection() throws {
        let output = try run("/usr/bin/python3", ["\(Self.scriptsDirectory)/default_collection.py", "lock"])
        guard output.status == 0, output.stdoutText.contains("locked"), !output.stdoutText.contains("unlocked") else {
            throw TestFixtureError("locking the default collection failed: \(output.stderrText)")
        }
    }

    /// A fixed path, so the bus comes back at the same address after `restart()`.
    private var socket: String { root.appending("bus") }

    private func startBus() throws {
        try? FileManager.default.removeItem(atPath: socket)
        let configuration = root.appending("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let bus = try InteractiveProcess(
            "dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
            environment: environment)
        children.append(bus)
        guard let address = bus.readLine(), address.hasPrefix("unix:") else {
            throw TestFixtureError("dbus-daemon did not print its address")
        }
        // Without the bus's guid, which a restarted bus does not share.
        environment["DBUS_SESSION_BUS_ADDRESS"] = String(address.prefix { $0 != "," })
    }

    private func startGnomeKeyring() throws {
        let keyring = try InteractiveProcess(
            "gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"],
            environment: environment)
        children.append(keyring)
        // --unlock reads the login password from stdin, up to its end.
        keyring.writeLine(Self.loginPassword)
        keyring.closeInput()
        // Ready when the default alias names a collection (ReadAlias answers "/" or fails until then).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let reply = try run(
                "dbus-send",
                [
                    "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                    "org.freedesktop.Secret.Service.ReadAlias", "string:default",
                ])
            if reply.status == 0, reply.stdoutText.contains("/org/freedesktop/secrets/collection/") { return }
            usleep(10_000)
        }
        throw TestFixtureError("gnome-keyring-daemon did not offer a default collection within 10 s")
    }

    private func startSilentOwner() throws {
        let owner = try InteractiveProcess(
            "/usr/bin/python3", ["\(Self.scriptsDirectory)/silent_secret_service.py"],
            environment: environment)
        children.append(owner)
        guard owner.readLine() == "ready" else { throw TestFixtureError("the silent Secret Service did not start") }
    }

    /// gnome-keyring-daemon --unlock takes all of its standard input, the newline included, as the password.
    private static let loginPassword = "test-login-password"

    private func stopChildren() {
        // Services first, the bus last.
        for child in children.reversed() { child.kill(signal: SIGKILL) }
        children = []
    }

    deinit {
        suspendSecretService(false)
        stopChildren()
    }
}
