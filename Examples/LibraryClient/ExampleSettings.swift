import FoundationEssentials
import TokenVault

/// What the example needs to know about the profile, from its command line and environment. These are the values
/// `authvault configure` keeps in its configuration file (which belongs to the CLI), given here explicitly.
struct ExampleSettings {
    static let usage = """
        usage: authvault-library-example --user-pool-id ID --client-id ID [--region R] [--endpoint URL]
                                         [--issuer URL] [--jwks-url URL] [--profile NAME]
                                         [--vault file|secret-service] [--data-directory DIR] API-URL
        Environment: AUTHVAULT_VAULT_PASSPHRASE (the file vault's passphrase), AUTHVAULT_KEY_CACHE_TIMEOUT
        (seconds the derived key stays in the session keyring; 0: not at all), as for authvault itself.
        """

    struct UsageError: Error {
        let message: String
    }

    var profile = "default"
    var userPoolId = ""
    var clientId = ""
    var region = ""
    var endpoint: String?
    var issuer = ""
    var jwksURL = ""
    var vault = VaultBackendKind.file
    /// The vault files and the profile locks, shared with the CLI (`$XDG_DATA_HOME/authvault`).
    var dataDirectory = ""
    var passphrase: String?
    var keyCacheSeconds = 3600
    var apiURL = ""

    init(arguments: [String], environment: [String: String]) throws(UsageError) {
        var explicitIssuer: String?, explicitJWKS: String?, explicitRegion: String?, explicitDirectory: String?
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
            case "--user-pool-id": userPoolId = value
            case "--client-id": clientId = value
            case "--region": explicitRegion = value
            case "--endpoint": endpoint = value
            case "--issuer": explicitIssuer = value
            case "--jwks-url": explicitJWKS = value
            case "--data-directory": explicitDirectory = value
            case "--vault":
                guard let kind = VaultBackendKind(rawValue: value), kind != .memory else {
                    throw UsageError(message: "--vault is file or secret-service, not '\(value)'")
                }
                vault = kind
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        guard !userPoolId.isEmpty, !clientId.isEmpty, !apiURL.isEmpty else {
            throw UsageError(message: "--user-pool-id, --client-id and the API URL are needed")
        }
        // What Cognito derives, as the CLI does: the region from the pool id, the issuer from both, the JWKS under it.
        region = explicitRegion ?? userPoolId.split(separator: "_").first.map(String.init) ?? ""
        issuer = explicitIssuer ?? "https://cognito-idp.\(region).amazonaws.com/\(userPoolId)"
        jwksURL = explicitJWKS ?? issuer + "/.well-known/jwks.json"
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? "") + "/.local/share"
        dataDirectory = explicitDirectory ?? dataHome + "/authvault"
        passphrase = environment["AUTHVAULT_VAULT_PASSPHRASE"].flatMap { $0.isEmpty ? nil : $0 }
        if let text = environment["AUTHVAULT_KEY_CACHE_TIMEOUT"], !text.isEmpty {
            guard let seconds = Int(text), seconds >= 0 else {
                throw UsageError(message: "AUTHVAULT_KEY_CACHE_TIMEOUT is a whole number of seconds, not '\(text)'")
            }
            keyCacheSeconds = seconds
        }
    }
}
