/// `authvault version`: the same as `authvault --version`.
struct VersionCommand: CLICommand {
    static let name = "version"
    static let spec = CommandSpec(name: name, abstract: "Show the version (the same as '--version').")

    init(arguments: ParsedArguments) throws(UsageError) {}

    func run(in context: CommandContext) async throws(CLIError) {
        context.standardOutput.line("authvault \(AuthVault.version)")
    }
}

/// `authvault help [command...]`: the same as `authvault [command...] --help`.
struct HelpCommand: CLICommand {
    static let name = "help"
    static let spec = CommandSpec(
        name: name, abstract: "Show help for authvault or one of its commands (the same as '<command> --help').",
        // No `.words` of the command table here: the table holds this spec, and a static that reads itself while it
        // is being made never finishes (swift_once spins on the lock it holds).
        positionals: [
            PositionalSpec(
                "command", help: "The command (and subcommand) to explain, e.g. 'help vault migrate'.",
                isOptional: true)
        ],
        acceptsTrailingArguments: true)

    let node: CommandNode
    let path: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        var node = AuthVault.commands
        var path = [node.name]
        for name in arguments.positionals {
            let children = node.children
            guard let child = children.first(where: { $0.name == name }) else {
                let suggestion = Suggestion.line(for: name, among: children.map(\.name)).map { "\n" + $0 } ?? ""
                throw UsageError(
                    "Unknown command '\((path.dropFirst() + [name]).joined(separator: " "))'.\(suggestion)")
            }
            node = child
            path.append(name)
        }
        self.node = node
        self.path = path
    }

    func run(in context: CommandContext) async throws(CLIError) {
        context.standardOutput.write(HelpFormatter.render(node, path: path))
    }
}
