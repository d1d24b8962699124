import AuthVaultApp
import FoundationEssentials

/// `authvault profiles ...`: the configured profiles, which one is current, and removing one.
enum ProfilesCommands {
    static let group = CommandNode.group(
        name: "profiles",
        abstract: "List, choose and remove the configured profiles.",
        children: [.command(ProfilesListCommand.self), .command(ProfilesUseCommand.self), .command(ProfilesRemoveCommand.self)],
        default: ProfilesListCommand.self
    )
}

/// `authvault profiles [list]`: lists the configured profiles.
struct ProfilesListCommand: CLICommand {
    static let json = OptionSpec.flag("json", help: "Print the resolved profiles as JSON.")
    static let names = OptionSpec.flag("names", help: "Print only the profile names, one a line (what shell completion offers).")

    static let spec = CommandSpec(
        name: "list",
        abstract: "List the configured profiles.",
        discussion: "The current profile (from --profile or $AUTHVAULT_PROFILE, else the one chosen with 'authvault profiles use', else 'default') is marked with '*'.",
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
        let file: ConfigFile
        do { file = try context.configStore.load() } catch { throw CLIErrors.from(error) }
        let names = file.profiles.keys.sorted()
        if namesOnly {
            for name in names { context.standardOutput.line(name) }
            return
        }
        if asJSON {
            try printJSON(file: file, names: names, context: context)
            return
        }
        guard !names.isEmpty else {
            context.standardError.line("No profiles yet in \(context.configPath). Create one with 'authvault configure --user-pool-id ID --client-id ID'.")
            return
        }
        var rows = [["", "PROFILE", "USER POOL", "CLIENT", "VAULT"]]
        for name in names {
            let settings = file.profiles[name]!
            let marker = name == context.profileName ? "*" : ""
            rows.append([marker, name, settings.userPoolId ?? "-", settings.clientId ?? "-", (settings.vault ?? .auto).rawValue])
        }
        context.standardOutput.write(TextTable.render(rows))
    }

    private func printJSON(file: ConfigFile, names: [String], context: CommandContext) throws(CLIError) {
        let entries = names.map { name in
            ProfileEntry(name: name, current: name == context.profileName, settings: file.profiles[name]!)
        }
        try JSONOutput.write(entries, to: context.standardOutput)
    }
}

/// One profile in `profiles --json`: every setting with its default filled in, or what the user set and why the
/// profile cannot be used yet.
private struct ProfileEntry: Encodable {
    let name: String
    let current: Bool
    let settings: ProfileSettings

    private enum Keys: String, CodingKey { case name, current, problem }

    func encode(to encoder: any Encoder) throws {
        switch Result(catching: { () throws(ConfigError) in try ResolvedProfile(name: name, settings: settings) }) {
        case .success(let resolved):
            try resolved.encode(to: encoder)
        case .failure(let problem):
            try settings.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(problem.description, forKey: .problem)
        }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        try container.encode(current, forKey: .current)
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
