import FoundationEssentials

/// `authvault profiles`: lists the configured profiles.
struct ProfilesCommand: CLICommand {
    static let json = OptionSpec.flag("json", help: "Print the resolved profiles as JSON.")

    static let spec = CommandSpec(
        name: "profiles",
        abstract: "List the configured profiles.",
        discussion: "The current profile (from --profile or $AUTHVAULT_PROFILE, else 'default') is marked with '*'.",
        options: [json]
    )

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let file: ConfigFile
        do { file = try context.configStore.load() } catch { throw CLIError(error.description) }
        let names = file.profiles.keys.sorted()
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
        struct Entry: Encodable {
            let name: String
            let current: Bool
            let region, userPoolId, clientId, endpoint, issuer, jwksURL: String?
            let hostedUI: String?
            let redirectURIs, scopes: [String]?
            let identityProvider: String?
            let vault: String?
            let problem: String?
        }
        let entries = names.map { name -> Entry in
            let settings = file.profiles[name]!
            let current = name == context.profileName
            do throws(ConfigError) {
                let p = try ResolvedProfile(name: name, settings: settings)
                return Entry(name: name, current: current, region: p.region, userPoolId: p.userPoolId, clientId: p.clientId,
                             endpoint: p.endpoint, issuer: p.issuer, jwksURL: p.jwksURL, hostedUI: p.hostedUI,
                             redirectURIs: p.redirectURIs, scopes: p.scopes, identityProvider: p.identityProvider,
                             vault: p.vault.rawValue, problem: nil)
            } catch {
                return Entry(name: name, current: current, region: settings.region, userPoolId: settings.userPoolId,
                             clientId: settings.clientId, endpoint: nil, issuer: nil, jwksURL: nil, hostedUI: settings.hostedUI,
                             redirectURIs: settings.redirectURIs, scopes: settings.scopes,
                             identityProvider: settings.identityProvider, vault: settings.vault?.rawValue,
                             problem: error.description)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entries) else { throw CLIError("Could not encode the profile list.") }
        context.standardOutput.line(String(decoding: data, as: UTF8.self))
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
