/// What a command is called, what it does, and what it accepts: the single source for parsing and for `--help`.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    let discussion: String?
    let options: [OptionSpec]
    let positionals: [PositionalSpec]
    /// Accepts any number of trailing positionals (for example a command to run after `--`).
    let acceptsTrailingArguments: Bool
    /// Options this command once spelled otherwise: the old spelling is refused with the new one named.
    let renamedOptions: [RenamedOption]

    init(
        name: String,
        abstract: String,
        discussion: String? = nil,
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        acceptsTrailingArguments: Bool = false,
        renamedOptions: [RenamedOption] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.acceptsTrailingArguments = acceptsTrailingArguments
        self.renamedOptions = renamedOptions
    }
}

/// An option's former spelling on one command, kept so a script that still uses it learns the new one.
struct RenamedOption: Sendable {
    let former: String
    let current: OptionSpec
    /// Why it changed, in a few words.
    let reason: String
}

/// A command the user can run: its spec, how it is built from parsed arguments, and what it does.
protocol CLICommand: Sendable {
    /// The name the command is run by, apart from its spec: finding a command by name builds no other's spec.
    static var name: String { get }
    static var spec: CommandSpec { get }
    init(arguments: ParsedArguments) throws(UsageError)
    /// On the caller's executor (nonsending): a command that answers without awaiting any actor — a token from the
    /// agent — then runs on the main thread from start to exit, and the async runtime starts no thread.
    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError)
}

/// A node of the command tree: a runnable command, or a group such as `vault` whose children do the work.
/// A group may name a default command, run when no child is named (`authvault profiles` lists them).
indirect enum CommandNode: Sendable {
    case command(any CLICommand.Type)
    case group(name: String, abstract: String, children: [CommandNode], default: (any CLICommand.Type)? = nil)

    var name: String {
        switch self {
        case .command(let type): return type.name
        case .group(let name, _, _, _): return name
        }
    }

    var abstract: String {
        switch self {
        case .command(let type): return type.spec.abstract
        case .group(_, let abstract, _, _): return abstract
        }
    }

    /// The child commands and groups; none for a command.
    var children: [CommandNode] {
        if case .group(_, _, let children, _) = self { return children }
        return []
    }
}
