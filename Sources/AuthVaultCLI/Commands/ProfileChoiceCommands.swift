import AuthVaultApp

/// `authvault profiles use NAME`: the profile later commands use when none is named.
struct ProfilesUseCommand: CLICommand {
    static let name = "use"
    static let spec = CommandSpec(
        name: name,
        abstract: "Make a profile the current one, for every later command that names none.",
        discussion:
            "Kept in the configuration file. --profile and $AUTHVAULT_PROFILE still win over it; '' goes back to 'default'.",
        positionals: [
            PositionalSpec("name", help: "A configured profile, or '' for 'default'.", completion: .profileName)
        ])

    let name: String?

    init(arguments: ParsedArguments) throws(UsageError) {
        let given = arguments.positional(0) ?? ""
        name = given.isEmpty ? nil : given
    }

    func run(in context: CommandContext) async throws(CLIError) {
        try application(for: name ?? "default") { () throws(ApplicationError) in
            try context.application.useProfile(named: name)
        }
        context.standardError.line(
            name.map { "Profile '\($0)' is now the current profile." }
                ?? "No profile is chosen now: commands use 'default' unless told otherwise.")
        if let named = context.variables.nonEmpty("AUTHVAULT_PROFILE"), named != name {
            context.standardError.line(
                "Note: $AUTHVAULT_PROFILE is set to '\(named)' here, and it wins over the current profile.")
        }
    }
}

/// `authvault profiles remove NAME`: the profile's configuration and everything the vaults keep for it.
struct ProfilesRemoveCommand: CLICommand {
    static let yes = OptionSpec.flag("yes", short: "y", help: "Remove without asking.")
    static let name = "remove"
    static let spec = CommandSpec(
        name: name,
        abstract:
            "Remove a profile: its configuration and everything its vault keeps (tokens, client secret, device keys, AWS credentials).",
        discussion: """
            Asks first on a terminal; without one, --yes is required. The profile's lock and revision files and its entry
            in the record of backends go too. The tokens are forgotten on this machine, not revoked: run
            'authvault --profile NAME logout' first to revoke them.
            """,
        options: [yes],
        positionals: [PositionalSpec("name", help: "The profile to remove.", completion: .profileName)])

    let name: String
    let confirmed: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        name = arguments.positional(0) ?? ""
        confirmed = arguments.flag(Self.yes)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        if !confirmed {
            guard context.isInteractive else {
                throw CLIError(
                    "Removing profile '\(name)' deletes its stored tokens: confirm with --yes.", status: .usage)
            }
            let answer =
                context.prompter.readLine(prompt: "Remove profile '\(name)' and its stored tokens? [y/N] ") ?? ""
            guard ["y", "yes"].contains(answer.lowercased()) else {
                throw CLIError("Nothing was removed.", status: .failure)
            }
        }
        let removed = try await application(for: name) { () async throws(ApplicationError) in
            try await context.application.removeProfile(named: name)
        }
        context.standardError.line("Removed profile '\(name)' from \(context.configPath).")
        let places = removed.erasedFrom.map { $0 == .file ? "the encrypted file vault" : "the Secret Service" }
        context.standardError.line(
            places.isEmpty
                ? "No vault held anything of it; its lock and revision files are gone."
                : "Deleted its tokens, client secret, device keys and AWS credentials from \(places.joined(separator: " and ")), and its lock and revision files."
        )
        if removed.wasCurrent { context.standardError.line("It was the current profile: commands use 'default' now.") }
    }
}
