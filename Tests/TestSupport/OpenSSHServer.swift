import Foundation

/// Debian's OpenSSH server as the remote host a user reaches with `ssh`: `/usr/sbin/sshd -D` in the foreground on a
/// loopback port of its own, with a host key, a configuration and an authorized key of its own, letting in only the
/// test's key and only the test's own user; and `ssh` with no configuration but what the test gives (the host key
/// pinned). The remote forwards Unix sockets (`ssh -R`) and replaces a stale one (`StreamLocalBindUnlink yes`), as
/// docs/helpers-and-agent.md tells an administrator to allow. Killed when released.
public final class OpenSSHServer: @unchecked Sendable {
    public static let sshd = "/usr/sbin/sshd"
    public static let ssh = "/usr/bin/ssh"

    /// Why the server cannot run here, nil when it can: Debian's openssh-server and openssh-client installed, and,
    /// for root, sshd's privilege separation directory (made here when missing, as its service would).
    public static var unavailableReason: String? {
        for tool in [sshd, ssh, "/usr/bin/ssh-keygen"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed (Debian's openssh-server and openssh-client)"
        }
        guard geteuid() == 0 else { return nil }
        var status = stat()
        if stat("/run/sshd", &status) != 0 && mkdir("/run/sshd", 0o755) != 0 {
            return "sshd's privilege separation directory /run/sshd cannot be made"
        }
        return nil
    }

    public let port: UInt16
    /// The user the client logs in as: this process's own.
    public let user: String
    private let directory: TemporaryDirectory
    private let pid: pid_t

    public init() throws {
        directory = try TemporaryDirectory(prefix: "authvault-sshd")
        guard let entry = getpwuid(geteuid()) else { throw TestFixtureError("this process's user has no name") }
        user = String(cString: entry.pointee.pw_name)
        for key in ["host_key", "client_key"] {
            let made = try ProcessRunner.run(
                "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", key, "-f", directory.appending(key)])
            guard made.status == 0 else { throw TestFixtureError("ssh-keygen: \(made.stderrText)") }
        }
        port = FreeLoopbackPorts.run(of: 1)[0]
        let hostKey = try String(contentsOfFile: directory.appending("host_key.pub"), encoding: .utf8)
        try "[127.0.0.1]:\(port) \(hostKey)".write(
            toFile: directory.appending("known_hosts"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: directory.appending("client_key.pub"), toPath: directory.appending("authorized_keys"))
        let configuration = directory.appending("sshd_config")
        // StrictModes off: the test's temporary directories are not the home directory sshd would check.
        try """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(directory.appending("host_key"))
        PidFile none
        AuthorizedKeysFile \(directory.appending("authorized_keys"))
        AllowUsers \(user)
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no
        PermitRootLogin prohibit-password
        AllowStreamLocalForwarding yes
        StreamLocalBindUnlink yes
        X11Forwarding no
        PrintMotd no
        LogLevel VERBOSE

        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        // Spawned and reaped here, not by Foundation's Process: that one learns of a child's end when the child
        // closes a socket it inherited, and sshd closes every inherited descriptor at start, so Foundation would
        // wait for sshd on the thread that reaps every other child (the ssh clients) and reap none of them.
        let arguments = [Self.sshd, "-D", "-f", configuration, "-E", directory.appending("sshd.log")]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
        }
        var spawned: pid_t = 0
        let failure = posix_spawn(&spawned, Self.sshd, &actions, nil, &argv, environ)
        guard failure == 0 else { throw TestFixtureError("cannot start sshd: errno \(failure)") }
        pid = spawned
        // Fully made: when this throws, deinit stops it.
        guard LoopbackPort.waitUntilListening(port, timeout: 10) else {
            throw TestFixtureError("sshd did not listen on port \(port): \(log)")
        }
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// What sshd logged (connections, forwardings, refusals).
    public var log: String {
        (try? String(contentsOfFile: directory.appending("sshd.log"), encoding: .utf8)) ?? ""
    }

    /// `ssh OPTIONS user@127.0.0.1 COMMAND` (COMMAND run by the user's shell on the "remote" host), in batch mode
    /// with the test's key, the host key pinned and no configuration file read; a forwarding that fails ends it.
    public func run(_ options: [String], command: String, stdin: String? = nil, timeout: TimeInterval = 60)
        async throws -> ProcessOutput
    {
        try await BoundedProcess.run(
            Self.ssh,
            [
                "-F", "/dev/null", "-i", directory.appending("client_key"), "-o", "IdentitiesOnly=yes",
                "-o", "UserKnownHostsFile=\(directory.appending("known_hosts"))", "-o", "StrictHostKeyChecking=yes",
                "-o", "BatchMode=yes", "-o", "ExitOnForwardFailure=yes", "-o", "LogLevel=ERROR",
                "-p", "\(port)",
            ] + options + ["\(user)@127.0.0.1", command],
            stdin: Data((stdin ?? "").utf8), environment: ["PATH": "/usr/bin:/bin"], timeout: timeout)
    }

    /// `words` as one line for a POSIX shell, each quoted.
    public static func shellLine(_ words: [String]) -> String {
        words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
    }
}
