import AuthVaultApp

/// `authvault vault-token-helper get|store|erase` (also run as `vault-token-helper-authvault`): HashiCorp Vault's
/// token helper protocol. `get` prints the bare token; `store` and `erase` change nothing. Vault's CLI runs the
/// helper with `VAULT_ADDR` set to the server it is about to call (unset: its default, https://127.0.0.1:8200): that
/// server must be https and its host listed with `configure --helper-host`, as for every helper.
struct VaultTokenHelperCommand: CLICommand {
    static let name = "vault-token-helper"
    static let spec = CommandSpec(
        name: name,
        abstract: "HashiCorp Vault token helper: the profile's token for the vault CLI.",
        discussion: """
            Configure with token_helper = "/usr/local/bin/vault-token-helper-authvault" in ~/.vault (installed by 'make install')
            and 'authvault configure --helper-host vault.example.com:8200': the token goes only to the https VAULT_ADDR
            the vault CLI names (without one, to Vault's default https://127.0.0.1:8200 when that is listed).
            """,
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
        let token = try await HelperToken.answer(
            .access, for: .vault, url: context.variables["VAULT_ADDR"], context: context.withoutPrompts())
        context.standardOutput.write(token.token)
    }
}
