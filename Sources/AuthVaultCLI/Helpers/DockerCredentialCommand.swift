import AuthVaultApp

/// `authvault docker-credential get|store|erase|list|version` (also run as `docker-credential-authvault`): Docker's
/// credential helper protocol, for registries listed with `configure --helper-host`.
struct DockerCredentialCommand: CLICommand {
    static let name = "docker-credential"
    static let spec = CommandSpec(
        name: name,
        abstract: "Docker credential helper: the profile's token for its registries.",
        discussion: """
            Configure with "credHelpers": {"registry.example.com": "authvault"} in ~/.docker/config.json and
            'authvault configure --helper-host registry.example.com'. Only a listed registry reached over https gets
            the token; --profile or $AUTHVAULT_PROFILE chooses among the listing profiles. store and erase change nothing.
            """,
        positionals: [PositionalSpec("operation", help: "get, store, erase, list or version (docker passes it).")])

    let operation: String

    init(arguments: ParsedArguments) throws(UsageError) {
        operation = arguments.positional(0) ?? ""
        guard ["get", "store", "erase", "list", "version"].contains(operation) else {
            throw UsageError("Unknown operation '\(operation)': docker passes get, store, erase, list or version.")
        }
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        switch operation {
        case "version":
            context.standardOutput.line("authvault \(AuthVault.version)")
        case "get":
            let serverURL = String((Swift.readLine(strippingNewline: true) ?? "").filter { !$0.isWhitespace })
            var choice = HelperChoice.notListed
            var token: HelperToken?
            if let target = HelperTarget(dockerServer: serverURL) {
                choice = try await HelperToken.choice(for: target, context: context)
                if case .answer(let profile) = choice {
                    token = try await HelperToken.fetch(.access, profile: profile, context: context.withoutPrompts())
                } else if case .notListed = choice {
                    token = try HelperToken.fromAgent(.access, for: target, context: context)
                }
            }
            guard let token else {
                context.standardOutput.line("credentials not found in native keychain")
                if case .ambiguous(let candidates) = choice {
                    throw CLIError(
                        "No token for \(serverURL): profiles \(HelperToken.quoted(candidates)) all list it. Name one "
                            + "with $AUTHVAULT_PROFILE.")
                }
                throw CLIError(
                    "No profile answers for \(serverURL): a token goes only over https, to a registry listed with "
                        + "\(Remedy.command("configure", profile: context.profileName, "--helper-host HOST[:PORT]")).")
            }
            JSONOutput.write(
                .object(
                    ("Secret", .string(token.token)), ("ServerURL", .string(serverURL)),
                    ("Username", .string(token.username))), to: context.standardOutput)
        case "list":
            let file: ConfigFile
            do { file = try context.configStore.load() } catch { throw CLIErrors.from(error) }
            var servers: [String: String] = [:]
            for (name, settings) in file.profiles {
                for host in settings.helperHosts ?? [] { servers[host] = name }
            }
            try JSONOutput.write(servers, pretty: false, to: context.standardOutput)
        default:
            // store and erase: the request is read and dropped; the session stays.
            while Swift.readLine() != nil {}
        }
    }
}
