/// What the example is asked: which configured profile, and the API to call. Everything else about the profile —
/// its pool, endpoints, vault and passphrase — is what `authvault configure` keeps, read through AuthVaultApp.
struct ExampleSettings {
    static let usage = """
        usage: authvault-library-example [--profile NAME] [--config PATH] API-URL
        The profile is one `authvault configure` made (default: $AUTHVAULT_PROFILE, else "default"); its vault's
        passphrase comes from AUTHVAULT_VAULT_PASSPHRASE(_FILE), as for authvault itself.
        """

    struct UsageError: Error {
        let message: String
    }

    var profile: String?
    var configPath: String?
    var apiURL = ""

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments.makeIterator()
        while let argument = remaining.next() {
            guard argument.hasPrefix("--") else {
                guard apiURL.isEmpty else { throw UsageError(message: "one API URL only") }
                apiURL = argument
                continue
            }
            guard let value = remaining.next() else { throw UsageError(message: "\(argument) needs a value") }
            switch argument {
            case "--profile": profile = value
            case "--config": configPath = value
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        guard !apiURL.isEmpty else { throw UsageError(message: "the API URL is needed") }
    }
}
