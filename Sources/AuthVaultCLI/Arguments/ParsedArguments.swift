/// What the parser found on the command line for one command: flags, option values and positionals.
public struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    public internal(set) var positionals: [String] = []

    public init() {}

    public func flag(_ option: OptionSpec) -> Bool {
        flags.contains(option.long)
    }

    /// The last value given for the option, or `nil`.
    public func value(_ option: OptionSpec) -> String? {
        values[option.long]?.last
    }

    /// Every value given for a repeatable option, in order.
    public func values(_ option: OptionSpec) -> [String] {
        values[option.long] ?? []
    }

    public func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}
