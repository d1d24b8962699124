import Foundation

/// A python script from Tests/TestSupport/Scripts running as a loopback server: it binds a free port itself
/// and prints it as its first stdout line, so there is no race for the port. It exits when its stdin (held
/// open here) closes: when released, or when this process dies. Signals are no way to stop it: children
/// spawned from a Dispatch thread inherit that thread's mask, with SIGTERM blocked.
public final class ScriptServer: @unchecked Sendable {
    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let process: Process
    private let stdin: Pipe

    private init(port: Int, process: Process, stdin: Pipe) {
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// Closes the child's stdin and kills it (SIGKILL cannot be blocked), without blocking the releasing thread.
    deinit {
        try? stdin.fileHandleForWriting.close()
        process.killAndReap()
    }

    /// The absolute path of a script in Tests/TestSupport/Scripts.
    public static func scriptPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/\(name)").path
    }

    /// - Parameter environment: added to this process's environment.
    public static func start(script: String, arguments: [String] = [], environment: [String: String] = [:]) async throws
        -> ScriptServer
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PeerPython.path)
        process.arguments = [scriptPath(script)] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        // Request logs are of no use to the tests and would fill an unread pipe.
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            let port = try await firstLineAsPort(stdout.fileHandleForReading, script: script)
            return ScriptServer(port: port, process: process, stdin: stdin)
        } catch {
            process.killAndReap()
            throw error
        }
    }

    /// Read on a Dispatch thread: a blocking read must not hold one of the two cooperative threads.
    private static func firstLineAsPort(_ output: FileHandle, script: String) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var line = Data()
                while !line.contains(UInt8(ascii: "\n")) {
                    let chunk = output.availableData
                    if chunk.isEmpty { break }
                    line.append(chunk)
                }
                let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if let port = Int(text) {
                    continuation.resume(returning: port)
                } else {
                    continuation.resume(
                        throwing: TestFixtureError("\(script) printed no port (is its Python package installed?)"))
                }
            }
        }
    }
}
