import Foundation

/// Runs a child process to completion off Swift's cooperative pool, for tests that start many at once.
/// Its output goes to files (no reader threads per child); standard input is written into a pipe before the child
/// starts (no SIGPIPE, no blocking). A child that outlives `timeout` is killed with SIGKILL: children of the test
/// runner inherit a signal mask that blocks SIGTERM, so `Process.terminate()` would not end it.
public enum BoundedProcess {
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        stdin: Data? = nil,
        environment: [String: String]? = nil,
        timeout: TimeInterval = 60
    ) async throws -> ProcessOutput {
        try await OffPool.run {
            try runBlocking(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], stdin: Data?, environment: [String: String]?, timeout: TimeInterval
    ) throws -> ProcessOutput {
        let outputs = try TemporaryDirectory(prefix: "authvault-run")
        let outPath = outputs.appending("stdout")
        let errPath = outputs.appending("stderr")
        for path in [outPath, errPath] {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw TestFixtureError("cannot create \(path)")
            }
        }
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: executable.contains("/") ? executable : try ProcessRunner.which(executable))
        process.arguments = arguments
        if let environment = SanitizerOptions.added(to: environment) { process.environment = environment }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        if let stdin { try input.fileHandleForWriting.write(contentsOf: stdin) }
        try input.fileHandleForWriting.close()
        process.standardInput = input

        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ProcessRunnerError.timedOut(executable)
        }
        process.waitUntilExit()
        return ProcessOutput(
            status: process.terminationStatus,
            stdout: FileManager.default.contents(atPath: outPath) ?? Data(),
            stderr: FileManager.default.contents(atPath: errPath) ?? Data())
    }
}
