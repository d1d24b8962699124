/// One command-line option, declared beside the command that reads it.
struct OptionSpec: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `--name`, present or not.
        case flag
        /// `--name VALUE` or `--name=VALUE`; the last one given wins.
        case value(placeholder: String)
        /// `--name VALUE`, repeatable; every value is kept in order.
        case repeatable(placeholder: String)
    }

    let long: String
    let short: Character?
    let kind: Kind
    let help: String
    /// What the option is when absent, shown in help as "(default: ...)"; declared with the option's parser.
    let defaultText: String?
    /// What a shell completes as its value.
    let completion: ValueCompletion

    init(
        long: String, short: Character?, kind: Kind, help: String, defaultText: String? = nil,
        completion: ValueCompletion = .anything
    ) {
        self.long = long
        self.short = short
        self.kind = kind
        self.help = help
        self.defaultText = defaultText
        self.completion = completion
    }

    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .flag, help: help)
    }

    static func value(
        _ long: String, short: Character? = nil, placeholder: String, help: String,
        completion: ValueCompletion = .anything
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value(placeholder: placeholder), help: help, completion: completion)
    }

    static func repeatable(_ long: String, placeholder: String, help: String) -> OptionSpec {
        OptionSpec(long: long, short: nil, kind: .repeatable(placeholder: placeholder), help: help)
    }

    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    /// How the option reads in a usage line or the option table: `--region <region>`.
    var synopsis: String {
        switch kind {
        case .flag: return "--\(long)"
        case .value(let placeholder), .repeatable(let placeholder): return "--\(long) <\(placeholder)>"
        }
    }
}

/// A positional argument of a command.
struct PositionalSpec: Sendable, Hashable {
    let name: String
    let help: String
    let isOptional: Bool
    /// What a shell completes in its place.
    let completion: ValueCompletion

    init(_ name: String, help: String, isOptional: Bool = false, completion: ValueCompletion = .anything) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.completion = completion
    }
}
