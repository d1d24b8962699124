/// Options every command accepts, before or after the command name.
enum GlobalOption {
    static let profile = OptionSpec.value(
        "profile", short: "p", placeholder: "name",
        help: "The profile to use (default: $AUTHVAULT_PROFILE, else the one 'profiles use' chose, else 'default').",
        completion: .profileName)
    static let config = OptionSpec.value(
        "config", placeholder: "path",
        help: "The configuration file (default: $AUTHVAULT_CONFIG, else $XDG_CONFIG_HOME/authvault/config.json).",
        completion: .file)
    static let help = OptionSpec.flag("help", short: "h", help: "Show help for this command.")
    static let version = OptionSpec.flag("version", help: "Show the version.")
    static let nonInteractive = OptionSpec.flag(
        "non-interactive",
        help: "Never prompt or open a browser; fail with the command to run instead.")
    static let debug = OptionSpec.flag(
        "debug", help: "Say on stderr what is decided and sent, and why (never a secret); also $AUTHVAULT_DEBUG=1.")

    static let all = [profile, config, nonInteractive, debug, help, version]
}

/// What the command line asks for.
enum Invocation {
    case run(any CLICommand.Type, ParsedArguments, path: [String])
    case help(CommandNode, path: [String])
    case version
}

/// Parses `argv` against the command tree. Written for this project: options are looked up in the declarations of
/// the command being run plus the global ones, so every option and its help text live in one place.
struct ArgumentParser {
    let root: CommandNode
    /// Commands of the root reached by name only: listed by no help and no completion (a packaging step).
    var hidden: [CommandNode] = []

    func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var node = root
        var path = [root.name]
        var parsed = ParsedArguments()
        var wantsHelp = false
        var index = 0
        var onlyPositionals = false

        func currentOptions() -> [OptionSpec] {
            if case .command(let type) = node { return GlobalOption.all + type.spec.options }
            return GlobalOption.all
        }
        func usage(_ message: String, suggesting given: String? = nil, among names: [String] = []) -> UsageError {
            let suggestion = given.flatMap { Suggestion.line(for: $0, among: names) }
            return UsageError(
                suggestion.map { message + "\n" + $0 } ?? message, commandPath: path.joined(separator: " "))
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1

            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                if case .group(_, _, let children, _) = node, !onlyPositionals {
                    let reachable = path.count == 1 ? children + hidden : children
                    guard let child = reachable.first(where: { $0.name == argument }) else {
                        throw usage("Unknown command '\(argument)'.", suggesting: argument, among: children.map(\.name))
                    }
                    node = child
                    path.append(child.name)
                    continue
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }

            let (name, inlineValue) = Self.split(argument)
            // An option of the default command names it: `profiles --json` is `profiles list --json`.
            if case .group(_, _, _, let defaultCommand?) = node,
                !GlobalOption.all.contains(where: {
                    argument.hasPrefix("--") ? $0.long == name : name.count == 1 && $0.short == name.first
                })
            {
                node = .command(defaultCommand)
                path.append(defaultCommand.name)
            }
            let options = currentOptions()
            let option: OptionSpec?
            if argument.hasPrefix("--") {
                option = options.first { $0.long == name }
            } else if name.count == 1 {
                option = options.first { $0.short == name.first }
            } else {
                option = nil
            }
            guard let option else {
                let given = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
                if case .command(let type) = node, argument.hasPrefix("--"),
                    let renamed = type.spec.renamedOptions.first(where: { $0.former == name })
                {
                    throw usage(
                        "Unknown option '\(given)': \(renamed.reason).\nDid you mean '--\(renamed.current.long)'?")
                }
                // `exec ls -la`: the option is the command's, which only follows '--'.
                if case .command(let type) = node, type.spec.acceptsTrailingArguments,
                    let first = parsed.positionals.first
                {
                    throw usage(
                        "Unknown option '\(given)'. If it is an option of '\(first)', put '--' before the command: "
                            + "authvault \(path.dropFirst().joined(separator: " ")) -- \(first) \(given) ...")
                }
                throw usage("Unknown option '\(given)'.", suggesting: given, among: options.map { "--" + $0.long })
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw usage("Option '--\(option.long)' needs a value.")
                }
                parsed.add(option.long, value: value)
            } else {
                if inlineValue != nil { throw usage("Option '--\(option.long)' takes no value.") }
                parsed.addFlag(option.long)
            }
            if option == GlobalOption.help { wantsHelp = true }
        }

        if wantsHelp { return .help(node, path: path) }
        if parsed.flag(GlobalOption.version) { return .version }
        if case .group(_, _, _, let defaultCommand?) = node {
            node = .command(defaultCommand)
            path.append(defaultCommand.name)
        }
        guard case .command(let type) = node else {
            if path.count == 1 { return .help(node, path: path) }
            throw usage("'\(path.joined(separator: " "))' needs a subcommand.")
        }
        try Self.checkPositionals(parsed.positionals, of: type.spec, usage: { usage($0) })
        return .run(type, parsed, path: path)
    }

    private static func split(_ argument: String) -> (name: Substring, value: String?) {
        let trimmed = argument.drop { $0 == "-" }
        guard let equals = trimmed.firstIndex(of: "=") else { return (trimmed, nil) }
        return (trimmed[..<equals], String(trimmed[trimmed.index(after: equals)...]))
    }

    private static func checkPositionals(
        _ positionals: [String], of spec: CommandSpec, usage: (String) -> UsageError
    ) throws(UsageError) {
        let required = spec.positionals.filter { !$0.isOptional }
        if positionals.count < required.count {
            throw usage("Missing argument <\(required[positionals.count].name)>.")
        }
        if positionals.count > spec.positionals.count && !spec.acceptsTrailingArguments {
            throw usage("Unexpected argument '\(positionals[spec.positionals.count])'.")
        }
    }
}
