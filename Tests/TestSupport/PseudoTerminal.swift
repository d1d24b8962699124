import Foundation

/// Runs a command on a pseudo-terminal (Tests/TestSupport/Scripts/pty_drive.py) and types answers at its prompts.
public enum PseudoTerminal {
    public struct Session: Sendable {
        /// Everything the terminal showed: prompts, echoed input, output.
        public let screen: String
        public let status: Int32
        /// How many of the answers were typed (each waits for its prompt).
        public let answered: Int
    }

    /// - Parameter answers: (a piece of the prompt to wait for, what to type), in order.
    /// - Parameter columns: the terminal's width; nil leaves the pseudo-terminal's (none).
    public static func run(
        _ command: [String], answers: [(prompt: String, answer: String)],
        environment: [String: String], columns: Int? = nil
    ) throws -> Session {
        let directory = try TemporaryDirectory(prefix: "authvault-pty")
        let scriptPath = directory.appending("answers.json")
        let steps = answers.map { [$0.prompt, $0.answer] }
        try JSONSerialization.data(withJSONObject: steps).write(to: URL(fileURLWithPath: scriptPath))
        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Scripts/pty_drive.py"
        ).path
        let output = try ProcessRunner.run(
            PeerPython.path,
            [driver, scriptPath] + (columns.map { ["--columns", String($0)] } ?? []) + ["--"] + command,
            environment: environment, timeout: 90)
        guard let object = (try? JSONSerialization.jsonObject(with: output.stdout)) as? [String: Any] else {
            throw TestFixtureError("pty_drive.py failed: \(output.stderrText)")
        }
        return Session(
            screen: object["screen"] as? String ?? "", status: Int32(object["status"] as? Int ?? -1),
            answered: object["answered"] as? Int ?? 0)
    }
}
