import AuthVaultApp

/// `authvault profiles ...`: the configured profiles, which one is current, and removing one.
enum ProfilesCommands {
    static let group = CommandNode.group(
        name: "profiles",
        abstract: "List, choose and remove the configured profiles.",
        children: [
            .command(ProfilesListCommand.self), .command(ProfilesUseCommand.self), .command(ProfilesRemoveCommand.self),
        ],
        default: ProfilesListCommand.self
    )
}

/// `authvault profiles [list]`: lists the configured profiles.
struct ProfilesListCommand: CLICommand {
    static let json = JSONOutput.option("the profiles, defaults filled in", schema: "profiles-list")
    static let names = OptionSpec.flag(
        "names", help: "Print only the profile names, one a line (what shell completion offers).")

    static let name = "list"

    static let spec = CommandSpec(
        name: name,
        abstract: "List the configured profiles.",
        discussion:
            "The current profile (from --profile or $AUTHVAULT_PROFILE, else the one chosen with 'authvault profiles use', else 'default') is marked with '*'.",
        options: [json, names]
    )

    let asJSON: Bool
    let namesOnly: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
        namesOnly = arguments.flag(Self.names)
        if asJSON && namesOnly { throw UsageError("Choose one of --json and --names.") }
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let entries = try application(for: context.profileName) { () throws(ApplicationError) in
            try context.application.profileEntries(current: context.profileName)
        }
        if namesOnly {
            for entry in entries { context.standardOutput.line(entry.name) }
            return
        }
        if asJSON { return try JSONOutput.write(ProfileListing(entries), to: context.standardOutput) }
        guard !entries.isEmpty else {
            context.standardError.line(
                "No profiles yet in \(context.configPath). Create one with 'authvault configure --user-pool-id ID --client-id ID'."
            )
            return
        }
        var rows = [["", "PROFILE", "USER POOL", "CLIENT", "VAULT"]]
        for entry in entries {
            let settings = entry.settings
            rows.append([
                entry.current ? "*" : "", entry.name, settings.userPoolId ?? "-", settings.clientId ?? "-",
                (settings.vault ?? .auto).rawValue,
            ])
        }
        context.standardOutput.write(TextTable.render(rows))
    }
}

/// Left-aligned columns separated by two spaces.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
