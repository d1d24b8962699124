import AuthVaultApp

/// An option that takes a value of a type: its parser, the words an error uses for a good value, and its default,
/// each declared once. Help shows the default from here; `init(arguments:)` reads the typed value.
struct TypedOption<Value: Sendable>: Sendable {
    let spec: OptionSpec
    let defaultValue: Value
    private let parse: @Sendable (String) -> Value?
    private let expected: String

    /// With a default: absent, the option is `defaultValue`; help shows `shown`.
    /// Every command's options are built on each run (help lists the commands), so the text is given, never printed
    /// from a generic value: that would look the type up at run time on every start-up.
    init(
        _ long: String, placeholder: String, help: String, expected: String, default defaultValue: Value,
        shown: String, completion: ValueCompletion = .anything, parse: @escaping @Sendable (String) -> Value?
    ) {
        self.init(
            spec: OptionSpec(
                long: long, short: nil, kind: .value(placeholder: placeholder), help: help, defaultText: shown,
                completion: completion),
            defaultValue: defaultValue, expected: expected, parse: parse)
    }

    private init(spec: OptionSpec, defaultValue: Value, expected: String, parse: @escaping @Sendable (String) -> Value?)
    {
        self.spec = spec
        self.defaultValue = defaultValue
        self.parse = parse
        self.expected = expected
    }

    /// The value given, parsed; a value that does not parse is a usage error naming what would.
    func parsed(_ text: String) throws(UsageError) -> Value {
        guard let value = parse(text) else {
            throw UsageError("Invalid value '\(text)' for --\(spec.long): expected \(expected).")
        }
        return value
    }
}

extension TypedOption where Value == Int {
    /// A whole number of `unit` within `range`, declared once: anything else (too large for any integer, negative,
    /// `1e309`, `nan`, words) is a usage error naming the option and the range, never a number that later traps.
    init(_ long: String, unit: String, help: String, range: ClosedRange<Int>, default defaultValue: Int) {
        precondition(range.contains(defaultValue), "the default of --\(long) is outside its range")
        self.init(
            long, placeholder: unit, help: help,
            expected: "a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)",
            default: defaultValue, shown: String(defaultValue)
        ) { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension TypedOption where Value == String {
    init(
        _ long: String, placeholder: String, help: String, expected: String, default defaultValue: String,
        parse: @escaping @Sendable (String) -> String?
    ) {
        self.init(
            long, placeholder: placeholder, help: help, expected: expected, default: defaultValue, shown: defaultValue,
            parse: parse)
    }
}

extension TypedOption {
    /// Without a default of its own: absent, the option is `nil`, and help says what that means (`absent`).
    static func optional<Wrapped: Sendable>(
        _ long: String, placeholder: String, help: String, expected: String, absent: String? = nil,
        completion: ValueCompletion = .anything, parse: @escaping @Sendable (String) -> Wrapped?
    ) -> TypedOption<Wrapped?> where Value == Wrapped? {
        TypedOption<Wrapped?>(
            spec: OptionSpec(
                long: long, short: nil, kind: .value(placeholder: placeholder), help: help,
                defaultText: absent, completion: completion),
            defaultValue: nil, expected: expected, parse: { parse($0).map(Optional.some) })
    }
}

/// A closed set of words an option takes, such as `--format bare|header|json`: the placeholder and the error's
/// list come from the cases.
protocol OptionChoice: RawRepresentable<String>, CaseIterable, Sendable {}

extension OptionChoice {
    /// "bare|header|json". Joined by hand: `joined(separator:)` and key paths cost run-time type look-ups on
    /// every start-up.
    static var placeholder: String {
        var text = ""
        for choice in allCases { text += text.isEmpty ? choice.rawValue : "|" + choice.rawValue }
        return text
    }

    /// The words themselves, for shell completion.
    static var words: [String] {
        var words: [String] = []
        for choice in allCases { words.append(choice.rawValue) }
        return words
    }

    /// "bare, header or json".
    static var expected: String {
        let words = words
        var text = ""
        for (index, word) in words.enumerated() {
            text += index == 0 ? word : (index == words.count - 1 ? " or " : ", ") + word
        }
        return text
    }
}

extension TypedOption where Value: OptionChoice {
    init(_ long: String, help: String, default defaultValue: Value) {
        self.init(
            long, placeholder: Value.placeholder, help: help, expected: Value.expected, default: defaultValue,
            shown: defaultValue.rawValue, completion: .words(Value.words), parse: { Value(rawValue: $0) })
    }
}

extension TypedOption {
    static func optional<Choice: OptionChoice>(_ long: String, help: String, absent: String? = nil) -> TypedOption<
        Choice?
    >
    where Value == Choice? {
        .optional(
            long, placeholder: Choice.placeholder, help: help, expected: Choice.expected, absent: absent,
            completion: .words(Choice.words), parse: { Choice(rawValue: $0) })
    }
}

/// A `configure` value: one to keep, or '' for the option's default again.
enum ConfiguredValue<Value: Sendable>: Sendable {
    case set(Value)
    case reset

    /// Applies to a profile's field: a value replaces it, a reset clears it.
    func apply(to field: inout Value?) {
        switch self {
        case .set(let value): field = value
        case .reset: field = nil
        }
    }
}

extension TypedOption {
    /// A `configure` option: absent leaves the profile as it is, '' resets it to `default` (which help shows),
    /// anything else must parse.
    static func setting<Wrapped: Sendable>(
        _ long: String, placeholder: String, help: String, expected: String, default shown: String,
        completion: ValueCompletion = .anything, parse: @escaping @Sendable (String) -> Wrapped?
    ) -> TypedOption<ConfiguredValue<Wrapped>?> where Value == ConfiguredValue<Wrapped>? {
        .optional(
            long, placeholder: placeholder, help: help, expected: "\(expected), or '' for the default", absent: shown,
            completion: completion
        ) { text in
            text.isEmpty ? .reset : parse(text).map(ConfiguredValue.set)
        }
    }

    static func setting<Choice: OptionChoice>(_ long: String, help: String, default shown: Choice) -> TypedOption<
        ConfiguredValue<Choice>?
    >
    where Value == ConfiguredValue<Choice>? {
        .setting(
            long, placeholder: Choice.placeholder, help: help, expected: Choice.expected, default: shown.rawValue,
            completion: .words(Choice.words), parse: { Choice(rawValue: $0) })
    }
}

extension AuthFlowChoice: OptionChoice {}
extension VaultChoice: OptionChoice {}
extension OAuthEndpointSettings.LogoutStyleChoice: OptionChoice {}
extension GrantChoice: OptionChoice {}
extension FirstFactorChoice: OptionChoice {}
