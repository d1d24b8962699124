import Foundation

/// Debian's tinyproxy as the HTTP proxy a user's network puts in the way: plain http forwarded, https tunnelled with
/// CONNECT. It runs in the foreground on a loopback port with a configuration of its own (no filter, every port
/// allowed for CONNECT) and logs each connection and request line, which `connections()` and `requests()` read.
/// Killed when released.
public final class TinyProxy: @unchecked Sendable {
    public let port: UInt16
    public var url: String { "http://127.0.0.1:\(port)" }
    private let directory: TemporaryDirectory
    private let process: Process
    private var probeConnections = 0

    /// - Parameter resolving: host names the proxy (and only the proxy) resolves to 127.0.0.1, so that a test can
    ///   reach a local server by a name that is not loopback to the client: the proxy runs in a mount namespace of
    ///   its own whose /etc/hosts names them (root only, as CI runs).
    public init(resolving names: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: "authvault-tinyproxy")
        port = FreeLoopbackPorts.run(of: 1)[0]
        let configuration = directory.appending("tinyproxy.conf")
        try """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        LogFile "\(directory.appending("tinyproxy.log"))"
        LogLevel Connect
        MaxClients 50
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        process = Process()
        if names.isEmpty {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
            process.arguments = ["-d", "-c", configuration]
        } else {
            let hosts = directory.appending("hosts")
            try "127.0.0.1 \(names.joined(separator: " "))\n".write(toFile: hosts, atomically: true, encoding: .utf8)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = [
                "--mount", "sh", "-c", "mount --bind \"$1\" /etc/hosts && exec /usr/bin/tinyproxy -d -c \"$2\"",
                "sh", hosts, configuration,
            ]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopbackPort.waitUntilListening(port, timeout: 10) else {
            kill(process.processIdentifier, SIGKILL)
            throw TestFixtureError("tinyproxy did not listen on port \(port) (is Debian's tinyproxy installed?)")
        }
        // The readiness probe was a connection too: it is not one of the test's.
        for _ in 0..<200 where logLines().isEmpty || !logLines().contains(where: Self.isConnection) {
            Thread.sleep(forTimeInterval: 0.01)
        }
        probeConnections = logLines().filter(Self.isConnection).count
    }

    deinit {
        process.killAndReap()
    }

    /// The connections the proxy accepted, oldest first (each logged whether or not a request line followed).
    public func connections() -> [String] {
        logLines().filter(Self.isConnection).dropFirst(probeConnections).map(String.init)
    }

    /// The request lines the proxy received, oldest first: `CONNECT host:port HTTP/1.1`, `POST http://... HTTP/1.1`.
    public func requests() throws -> [String] {
        logLines().compactMap { line in
            line.range(of: "): ").flatMap {
                line.contains("Request (file descriptor") ? String(line[$0.upperBound...]) : nil
            }
        }
    }

    private static func isConnection(_ line: Substring) -> Bool {
        line.contains("Connect (file descriptor")
    }

    private func logLines() -> [Substring] {
        let log = (try? String(contentsOfFile: directory.appending("tinyproxy.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n")
    }
}
