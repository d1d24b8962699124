/// The command line itself is wrong: exit status 2, with a hint at `--help`.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String
    /// The command path whose help to point at, e.g. "authvault configure".
    var commandPath: String

    init(_ message: String, commandPath: String = "authvault") {
        self.message = message
        self.commandPath = commandPath
    }

    var description: String {
        "\(message)\nSee '\(commandPath) --help'."
    }
}
