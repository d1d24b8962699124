/// What the parser found on the command line for one command: flags, option values and positionals.
struct ParsedArguments: Sendable {
    /// Options by long name, in the order given; a flag has no value. A list, not a dictionary: every start-up
    /// parses, and a few lookups in a short list cost less than a dictionary's first use.
    private var options: [(name: String, value: String?)] = []
    var positionals: [String] = []

    init() {}

    mutating func addFlag(_ name: String) {
        options.append((name, nil))
    }

    mutating func add(_ name: String, value: String) {
        options.append((name, value))
    }

    func flag(_ option: OptionSpec) -> Bool {
        options.contains { $0.name == option.long && $0.value == nil }
    }

    /// The last value given for the option, or `nil`.
    func value(_ option: OptionSpec) -> String? {
        values(option).last
    }

    /// Every value given for a repeatable option, in order.
    func values(_ option: OptionSpec) -> [String] {
        options.compactMap { $0.name == option.long ? $0.value : nil }
    }

    /// The typed value given last, or the option's declared default.
    func value<Value>(_ option: TypedOption<Value>) throws(UsageError) -> Value {
        guard let text = value(option.spec) else { return option.defaultValue }
        return try option.parsed(text)
    }

    func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}
