import Foundation

/// A child process that a test talks to line by line while it runs (a peer that prints "ready", a probe that
/// answers one line per request), and can kill at a moment of its choosing. Killed with SIGKILL when released:
/// children of the test runner inherit a signal mask that blocks SIGTERM.
public final class InteractiveProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()

    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil) throws {
        process.executableURL = URL(
            fileURLWithPath: executable.contains("/") ? executable : try ProcessRunner.which(executable))
        process.arguments = arguments
        if let environment = SanitizerOptions.added(to: environment) { process.environment = environment }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The next line of standard output, without its newline; nil at end of output or after `timeout`.
    public func readLine(timeout: TimeInterval = 10) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered = Data(buffered[buffered.index(after: newline)...])
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { return nil }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { return nil }
            buffered.append(chunk)
        }
    }

    public func writeLine(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Ends standard input (a child that reads to the end, like a password on stdin, goes on from there).
    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Closes standard input and waits for the process to exit: at most `timeout` seconds, then SIGKILL, so a
    /// child that hangs fails its test instead of stalling the suite.
    public func finish(timeout: TimeInterval = 60) -> Int32 {
        closeInput()
        waitForExit(timeout: timeout)
        return process.terminationStatus
    }

    public var isRunning: Bool { process.isRunning }
    public var processIdentifier: Int32 { process.processIdentifier }
    /// The signal that ended the process; nil while it runs or when it exited.
    public var terminationSignal: Int32? {
        !process.isRunning && process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
    }

    /// Sends `signal` and waits for the exit: SIGKILL after `timeout` seconds if the signal did not end it.
    public func kill(signal: Int32 = SIGKILL, timeout: TimeInterval = 30) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
        waitForExit(timeout: timeout)
    }

    private func waitForExit(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        closeInput()
        kill(signal: SIGKILL)
    }
}
