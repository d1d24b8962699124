/// What the example is told on its command line: the pool, the vault's directory, and for a first sign-in the user.
/// Secrets are never arguments: the password and the vault passphrase come on standard input.
struct EmbeddingOptions {
    static let usage = """
        usage: authvault-embedding-example --user-pool-id ID --client-id ID --vault-directory DIR [--region REGION]
                 [--endpoint URL --jwks-url URL] [--username NAME] [--sign-out]
        Standard input: with --username, the password, then the vault passphrase; without it, the passphrase alone.
        """
    static let valued: Set = [
        "--region", "--user-pool-id", "--client-id", "--endpoint", "--jwks-url", "--vault-directory", "--username",
    ]

    private var values: [String: String] = [:]
    private(set) var signsOut = false

    init(_ arguments: [String]) throws(EmbeddingError) {
        var remaining = arguments.makeIterator()
        while let option = remaining.next() {
            if option == "--sign-out" {
                signsOut = true
                continue
            }
            guard Self.valued.contains(option) else { throw .usage("unknown option \(option)") }
            guard let value = remaining.next(), !value.isEmpty else { throw .usage("\(option) needs a value") }
            values[option] = value
        }
        for option in ["--user-pool-id", "--client-id", "--vault-directory"] where values[option] == nil {
            throw .usage("\(option) is needed")
        }
    }

    subscript(option: String) -> String? { values[option] }
    var userPoolId: String { values["--user-pool-id"] ?? "" }
    var clientId: String { values["--client-id"] ?? "" }
    var vaultDirectory: String { values["--vault-directory"] ?? "" }
}
