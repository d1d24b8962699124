/// `authvault vault-token-helper get|store|erase` (also run as `vault-token-helper-authvault`): HashiCorp Vault's
/// token helper protocol. `get` prints the bare token; `store` and `erase` change nothing.
struct VaultTokenHelperCommand: CLICommand {
    static let spec = CommandSpec(
        name: "vault-token-helper",
        abstract: "HashiCorp Vault token helper: the profile's token for the vault CLI.",
        discussion: "Configure with token_helper = \"/usr/local/bin/vault-token-helper-authvault\" in ~/.vault (installed by 'make install').",
        positionals: [PositionalSpec("operation", help: "get, store or erase (vault passes it).")])

    let operation: String

    init(arguments: ParsedArguments) throws(UsageError) {
        operation = arguments.positional(0) ?? ""
        guard ["get", "store", "erase"].contains(operation) else {
            throw UsageError("Unknown operation '\(operation)': vault passes get, store or erase.")
        }
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        guard operation == "get" else {
            while Swift.readLine() != nil {}
            return
        }
        let token = try await HelperToken.fetch(.access, context: context.withoutPrompts())
        context.standardOutput.write(token.token)
    }
}
