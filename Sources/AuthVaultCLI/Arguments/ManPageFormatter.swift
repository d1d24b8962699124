/// Renders the manual pages from the same declarations `--help` renders (HelpFormatter's option rows): authvault(1)
/// for the program and its global options, and authvault-<command>(1) for each command and group, so a page and
/// `--help` cannot disagree.
enum ManPageFormatter {
    /// A page: its file name (`authvault-vault-unlock.1`) and its roff source.
    struct Page: Sendable {
        let fileName: String
        let source: String
    }

    /// authvault(1), a page for every command and group under `root`, and for each helper name a `.so` page
    /// pointing at its command's (the installer links the helper names to the binary by these pages).
    static func pages(root: CommandNode, version: String) -> [Page] {
        var pages = [program(root, version: version)]
        pages += AuthVault.helperNames.map {
            Page(fileName: $0.0 + ".1", source: ".so man1/\(pageName([root.name, $0.1])).1\n")
        }
        func visit(_ node: CommandNode, path: [String]) {
            pages.append(command(node, path: path, version: version))
            for child in node.children { visit(child, path: path + [child.name]) }
        }
        for child in root.children { visit(child, path: [root.name, child.name]) }
        return pages
    }

    /// The page's name for a command path: `authvault vault unlock` is authvault-vault-unlock(1).
    static func pageName(_ path: [String]) -> String { path.joined(separator: "-") }

    private static func program(_ root: CommandNode, version: String) -> Page {
        var roff = header(root.name, version: version, abstract: root.abstract)
        roff += [
            ".SH SYNOPSIS",
            "\\fB\(root.name)\\fR [\\fIoptions\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION", text(ManPageReference.description),
            ".SH COMMANDS",
        ]
        roff += root.children.flatMap { item(bold(pageName([root.name, $0.name]) + "(1)"), $0.abstract) }
        roff += [".SH OPTIONS"] + optionItems(GlobalOption.all)
        roff += [".SH HELPER NAMES", text(ManPageReference.helperNames)]
        roff += AuthVault.helperNames.flatMap { item(bold($0.0), "The same as '\(root.name) \($0.1)'.") }
        roff += [".SH ENVIRONMENT"] + ManPageReference.environment.flatMap { item(bold($0.0), $0.1) }
        roff += [".SH FILES"] + ManPageReference.files.flatMap { item(italic($0.0), $0.1) }
        roff += [".SH EXIT STATUS"] + ExitStatus.allCases.flatMap { item(bold(String($0.rawValue)), $0.meaning) }
        roff += [".SH EXAMPLES"] + block(ManPageReference.examples)
        roff += [
            ".SH SEE ALSO", root.children.map { bold(pageName([root.name, $0.name])) + "(1)" }.joined(separator: ", "),
        ]
        return Page(fileName: root.name + ".1", source: roff.joined(separator: "\n") + "\n")
    }

    private static func command(_ node: CommandNode, path: [String], version: String) -> Page {
        let name = pageName(path)
        let commandPath = path.joined(separator: " ")
        var roff = header(name, version: version, abstract: node.abstract)
        switch node {
        case .group(_, _, let children, let defaultCommand):
            roff += [".SH SYNOPSIS", bold(commandPath) + " \\fIcommand\\fR [\\fIoptions\\fR]"]
            if let defaultCommand {
                roff += [
                    ".br",
                    bold(commandPath) + " [\\fIoptions\\fR]: the same as "
                        + bold("\(commandPath) \(defaultCommand.name)"),
                ]
            }
            roff += [".SH DESCRIPTION", text(node.abstract), ".SH COMMANDS"]
            roff += children.flatMap { item(bold(pageName(path + [$0.name])) + "(1)", $0.abstract) }
            roff += [".SH OPTIONS"] + optionItems(GlobalOption.all)
        case .command(let type):
            let spec = type.spec
            var synopsis = bold(commandPath)
            for option in spec.options { synopsis += " [" + escape(option.synopsis) + "]" }
            for positional in spec.positionals {
                synopsis += positional.isOptional ? " [\\fI<\(positional.name)>\\fR]" : " \\fI<\(positional.name)>\\fR"
            }
            if spec.acceptsTrailingArguments { synopsis += " [\\-\\- \\fIarguments\\fR...]" }
            roff += [".SH SYNOPSIS", synopsis, ".SH DESCRIPTION", text(spec.abstract)]
            if let discussion = spec.discussion { roff += [".PP"] + block(discussion) }
            if !spec.positionals.isEmpty {
                roff += [".SH ARGUMENTS"] + spec.positionals.flatMap { item(italic("<\($0.name)>"), $0.help) }
            }
            if !spec.options.isEmpty { roff += [".SH OPTIONS"] + optionItems(spec.options) }
            roff += [".SH GLOBAL OPTIONS"] + optionItems(GlobalOption.all)
        }
        roff += [".SH SEE ALSO", bold(path[0]) + "(1)"]
        return Page(fileName: name + ".1", source: roff.joined(separator: "\n") + "\n")
    }

    private static func header(_ name: String, version: String, abstract: String) -> [String] {
        // No date: the same sources make the same page (reproducible builds). No hyphenation: an option name split
        // at a line end would no longer be found by a search for it.
        [
            ".TH \(escape(name.uppercased())) 1 \"\" \"authvault \(version)\" \"AuthVault Manual\"", ".nh", ".ad l",
            ".SH NAME", "\(escape(name)) \\- \(escape(abstract))",
        ]
    }

    private static func optionItems(_ options: [OptionSpec]) -> [String] {
        options.map(HelpFormatter.optionRow).flatMap { item(bold($0.0), $0.1) }
    }

    private static func item(_ term: String, _ help: String) -> [String] { [".TP", term, text(help)] }
    private static func bold(_ words: String) -> String { "\\fB\(escape(words))\\fR" }
    private static func italic(_ words: String) -> String { "\\fI\(escape(words))\\fR" }

    /// Filled text: each line escaped, and a line roff would read as a request guarded.
    private static func text(_ paragraph: String) -> String {
        paragraph.split(separator: "\n").map { line in
            let escaped = escape(String(line))
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }

    /// A help discussion: its indented lines (examples) kept as they are, the rest filled, blank lines paragraphs.
    private static func block(_ discussion: String) -> [String] {
        var roff: [String] = []
        var inExample = false
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            let indented = line.first == " "
            if indented != inExample {
                roff += indented ? [".PP", ".RS 4", ".nf"] : [".fi", ".RE"] + (line.isEmpty ? [] : [".PP"])
            }
            inExample = indented
            roff.append(line.isEmpty ? ".PP" : text(String(indented ? line.dropFirst(2) : line[...])))
        }
        if inExample { roff += [".fi", ".RE"] }
        return roff
    }

    /// Roff's special characters as escapes: backslashes, hyphens and quotes as the ASCII characters a command is
    /// typed with (groff would print typographic ones), and anything beyond ASCII as a Unicode escape, so the page
    /// is plain ASCII.
    static func escape(_ words: String) -> String {
        var escaped = ""
        for scalar in words.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "'": escaped += "\\(aq"
            case "`": escaped += "\\(ga"
            case _ where scalar.value > 127:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
