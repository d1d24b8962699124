/// The command line itself is wrong: exit status 2, with a hint at `--help`.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// The command path whose help to point at, e.g. "authvault configure".
    public var commandPath: String

    public init(_ message: String, commandPath: String = "authvault") {
        self.message = message
        self.commandPath = commandPath
    }

    public var description: String {
        "\(message)\nSee '\(commandPath) --help'."
    }
}
