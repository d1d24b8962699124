import Foundation
import TestSupport

/// Tests/TestSupport/Scripts/http_test_server.py running as a child process on 127.0.0.1 (see the script
/// for its routes). Killed when released; it also exits by itself if this process dies (its stdin closes).
final class TestHTTPServer: @unchecked Sendable {
    let baseURL: String
    private let process: Process
    /// Held open for the child: it exits when this closes.
    private let stdin: Pipe

    private init(baseURL: String, process: Process, stdin: Pipe) {
        self.baseURL = baseURL
        self.process = process
        self.stdin = stdin
    }

    /// SIGKILL: the child inherits the spawning dispatch thread's signal mask, where SIGTERM may be blocked.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Plain HTTP, or HTTPS serving the fixture's server certificate.
    static func start(tls: TLSFixture? = nil) async throws -> TestHTTPServer {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TestSupport/Scripts/http_test_server.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ProcessRunner.which("python3"))
        process.arguments = [script] + (tls.map { ["--cert", $0.serverCertificatePath, "--key", $0.serverKeyPath] } ?? [])
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let port: Int
        do {
            port = try await readPort(from: stdout.fileHandleForReading)
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
        return TestHTTPServer(baseURL: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)", process: process, stdin: stdin)
    }

    func url(_ path: String) -> String { baseURL + path }

    /// The first stdout line, read on a Dispatch thread: a blocking read must not hold a cooperative thread.
    private static func readPort(from output: FileHandle) async throws -> Int {
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
                    continuation.resume(throwing: CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "test server printed no port"]))
                }
            }
        }
    }
}
