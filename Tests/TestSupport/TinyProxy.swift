import Foundation

/// Debian's tinyproxy as the HTTP proxy a user's network puts in the way: plain http forwarded, https tunnelled with
/// CONNECT. It runs in the foreground on a loopback port with a configuration of its own (no filter, every port
/// allowed for CONNECT) and logs each request line, which `requests()` reads. Killed when released.
public final class TinyProxy: @unchecked Sendable {
    public let port: UInt16
    public var url: String { "http://127.0.0.1:\(port)" }
    private let directory: TemporaryDirectory
    private let process: Process

    public init() throws {
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
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", configuration]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopbackPort.waitUntilListening(port, timeout: 10) else {
            kill(process.processIdentifier, SIGKILL)
            throw TestFixtureError("tinyproxy did not listen on port \(port) (is Debian's tinyproxy installed?)")
        }
    }

    deinit {
        process.killAndReap()
    }

    /// The request lines the proxy received, oldest first: `CONNECT host:port HTTP/1.1`, `POST http://... HTTP/1.1`.
    public func requests() throws -> [String] {
        let log = (try? String(contentsOfFile: directory.appending("tinyproxy.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            line.range(of: "): ").flatMap { line.contains("Request (file descriptor") ? String(line[$0.upperBound...]) : nil }
        }
    }
}
