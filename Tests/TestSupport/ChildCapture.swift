import Foundation

/// A command for AuthVault to start (the command of `exec`, a browser command) that copies its own
/// /proc/PID/cmdline and environ into `directory` while it runs, then runs its arguments: the leak sweep reads the
/// copies like any other file, so what AuthVault hands a child is swept while the child existed, not guessed.
public struct ChildCapture: Sendable {
    public let directory: String
    /// The script to name as the command; its arguments are the command it then runs.
    public let script: String

    /// - Parameter designatedVariable: a variable the child gets a secret in by design (`exec --env NAME`), left
    ///   out of the copy of its environment.
    public init(directory: String, designatedVariable: String? = nil) throws {
        self.directory = directory
        script = directory + "/capture-child.sh"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let filter = designatedVariable.map { "| grep -v '^\($0)='" } ?? ""
        try """
        #!/bin/sh
        tr '\\0' ' ' < /proc/$$/cmdline > "\(directory)/$$.cmdline"
        tr '\\0' '\\n' < /proc/$$/environ \(filter) > "\(directory)/$$.environ"
        exec "$@"

        """.write(toFile: script, atomically: true, encoding: .utf8)
        guard chmod(script, 0o700) == 0 else { throw TestFixtureError("cannot make \(script) executable") }
    }

    /// The copies written so far.
    public var captures: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".environ") }
    }
}
