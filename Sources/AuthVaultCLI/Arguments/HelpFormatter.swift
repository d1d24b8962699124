/// Renders `--help` from the same declarations the parser uses.
enum HelpFormatter {
    static func render(_ node: CommandNode, path: [String]) -> String {
        var lines: [String] = []
        let commandPath = path.concatenated(separator: " ")
        switch node {
        case .group(_, let abstract, let children, let defaultCommand):
            lines.append("OVERVIEW: \(abstract)")
            lines.append("")
            lines.append("USAGE: \(commandPath) <command> [options]")
            if let defaultCommand {
                lines.append(
                    "       \(commandPath) [options]   (the same as '\(commandPath) \(defaultCommand.name)')")
            }
            lines.append("")
            lines.append("COMMANDS:")
            lines += table(children.map { ($0.name, $0.abstract) })
            lines.append("")
            lines.append("OPTIONS:")
            lines += table(GlobalOption.all.map(optionRow))
            lines.append("")
            lines.append("See '\(commandPath) <command> --help' for the options of a command.")
        case .command(let type):
            let spec = type.spec
            lines.append("OVERVIEW: \(spec.abstract)")
            if let discussion = spec.discussion {
                lines.append("")
                lines.append(discussion)
            }
            lines.append("")
            var usage = "USAGE: \(commandPath)"
            for option in spec.options { usage += " [\(option.synopsis)]" }
            for positional in spec.positionals {
                usage += positional.isOptional ? " [<\(positional.name)>]" : " <\(positional.name)>"
            }
            if spec.acceptsTrailingArguments { usage += " [-- <arguments>...]" }
            lines.append(usage)
            if !spec.positionals.isEmpty {
                lines.append("")
                lines.append("ARGUMENTS:")
                lines += table(spec.positionals.map { ("<\($0.name)>", $0.help) })
            }
            lines.append("")
            lines.append("OPTIONS:")
            lines += table(spec.options.map(optionRow))
            lines.append("")
            lines.append("GLOBAL OPTIONS:")
            lines += table(GlobalOption.all.map(optionRow))
        }
        return lines.concatenated(separator: "\n") + "\n"
    }

    /// An option as its help row shows it: names, placeholder, and the help with its default; the manual pages too.
    static func optionRow(_ option: OptionSpec) -> (String, String) {
        let name = option.short.map { "-\($0), \(option.synopsis)" } ?? option.synopsis
        var help = option.help
        if let shown = option.defaultText { help += " (default: \(shown))" }
        if case .repeatable = option.kind { help += " (repeatable)" }
        return (name, help)
    }

    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(30, rows.map { $0.0.count }.max() ?? 0)
        return rows.map { name, help in
            if name.count > width {
                return "  \(name)\n  \(String(repeating: " ", count: width))  \(help)"
            }
            return "  \(name)\(String(repeating: " ", count: width - name.count))  \(help)"
        }
    }
}
