import Foundation

/// What a finished child process left behind.
public struct ProcessOutput: Sendable {
    public let status: Int32
    public let stdout: Data
    public let stderr: Data
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    public init(status: Int32, stdout: Data, stderr: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

public enum ProcessRunnerError: Error, CustomStringConvertible {
    case notFound(String)
    case timedOut(String)
    public var description: String {
        switch self {
        case .notFound(let name): return "executable not found: \(name)"
        case .timedOut(let name): return "process timed out: \(name)"
        }
    }
}

/// Runs a child process to completion with optional stdin and environment, reading both output pipes
/// concurrently so a chatty child cannot dead-lock on a full pipe.
public enum ProcessRunner {
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        stdin: Data? = nil,
        environment: [String: String]? = nil,
        currentDirectory: String? = nil,
        timeout: TimeInterval = 60
    ) throws -> ProcessOutput {
        let process = Process()
        let resolved = executable.contains("/") ? executable : try which(executable)
        process.executableURL = URL(fileURLWithPath: resolved)
        process.arguments = arguments
        if let environment = SanitizerOptions.added(to: environment) { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        let collected = OutputCollector()
        let group = DispatchGroup()
        for (pipe, isOut) in [(outPipe, true), (errPipe, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, stdout: isOut)
                group.leave()
            }
        }
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw ProcessRunnerError.timedOut(executable)
        }
        process.waitUntilExit()
        return ProcessOutput(status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// The absolute path of a command on PATH.
    public static func which(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ProcessRunnerError.notFound(name)
    }
}

private final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var stdout = Data()
    private(set) var stderr = Data()
    func set(_ data: Data, stdout isOut: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if isOut { stdout = data } else { stderr = data }
    }
}
