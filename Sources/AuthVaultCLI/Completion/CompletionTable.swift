/// The command tree as a shell completes it: for each command path ("", "vault", "vault status"), the words that
/// may come next, the options, and what each value and positional is. Built from the specs, never kept by hand.
struct CompletionTable {
    struct Entry {
        /// The command words after the program's name, joined by spaces; "" for the program itself.
        let path: String
        /// Subcommands and groups, with their one-line summaries.
        let children: [(name: String, abstract: String)]
        /// The command's options and the global ones.
        let options: [OptionSpec]
        let positionals: [PositionalSpec]
    }

    let entries: [Entry]

    init(root: CommandNode) {
        var entries: [Entry] = []
        func visit(_ node: CommandNode, path: String) {
            switch node {
            case .command(let type):
                entries.append(
                    Entry(
                        path: path, children: [], options: type.spec.options + GlobalOption.all,
                        positionals: type.spec.positionals))
            case .group(_, _, let children, let defaultCommand):
                entries.append(
                    Entry(
                        path: path, children: children.map { ($0.name, $0.abstract) },
                        options: (defaultCommand?.spec.options ?? []) + GlobalOption.all, positionals: []))
                for child in children { visit(child, path: path.isEmpty ? child.name : path + " " + child.name) }
            }
        }
        visit(root, path: "")
        self.entries = entries
    }

    /// Every option that takes a value, by any of its names, wherever it is declared (for skipping values while
    /// walking a command line).
    var valueOptionNames: [String] {
        var names: [String] = []
        for entry in entries {
            for option in entry.options where option.takesValue {
                for name in Self.names(of: option) where !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// `--long` and, when it has one, `-s`.
    static func names(of option: OptionSpec) -> [String] {
        ["--" + option.long] + (option.short.map { ["-\($0)"] } ?? [])
    }
}
