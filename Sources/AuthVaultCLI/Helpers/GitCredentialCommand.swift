import AuthVaultApp

/// `authvault git-credential get|store|erase` (also run as `git-credential-authvault`): git's credential helper
/// protocol. `get` answers with the profile's access token as the password; `store` and `erase` change nothing, so
/// a rejected push never signs the user out.
struct GitCredentialCommand: CLICommand {
    static let spec = CommandSpec(
        name: "git-credential",
        abstract: "git credential helper: the profile's token as the password for its hosts.",
        discussion: """
            Configure with: git config --global credential.https://git.example.com.helper authvault
            (git runs git-credential-authvault, installed by 'make install') and
            'authvault configure --helper-host git.example.com'. Only https, and only a host (and port, when the
            entry names one) that a profile lists, gets an answer; anything else gets none, so git asks its other
            helpers. --profile or $AUTHVAULT_PROFILE chooses among the listing profiles. Never prompts: without a
            session it says which login to run.
            """,
        positionals: [PositionalSpec("operation", help: "get, store or erase (git passes it).")])

    let operation: String

    init(arguments: ParsedArguments) throws(UsageError) {
        operation = arguments.positional(0) ?? ""
        guard ["get", "store", "erase"].contains(operation) else {
            throw UsageError("Unknown operation '\(operation)': git passes get, store or erase.")
        }
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        let request = CredentialRequest.read()
        guard operation == "get" else { return }
        guard let host = request.value("host"),
            let target = HelperTarget(gitProtocol: request.value("protocol"), host: host),
            let token = try await HelperToken.answer(.access, for: target, context: context.withoutPrompts())
        else {
            return
        }
        var lines: [String] = []
        if let wanted = request.value("protocol") { lines.append("protocol=\(wanted)") }
        lines.append("host=\(host)")
        if request.capabilities.contains("authtype") {
            lines += ["capability[]=authtype", "authtype=Bearer", "credential=\(token.token)", "ephemeral=true"]
        } else {
            lines += ["username=\(token.username)", "password=\(token.token)"]
        }
        lines.append("password_expiry_utc=\(TimeText.wholeSeconds(token.expiresAt.rounded(.down)))")
        context.standardOutput.write(lines.concatenated(separator: "\n") + "\n\n")
    }
}

/// The `key=value` lines git writes to a helper, up to a blank line or the end of input. Lists, not a dictionary
/// and a set: a handful of lines, read on every git fetch, where a hashed collection's first use costs more.
struct CredentialRequest {
    private var fields: [(key: String, value: String)] = []
    private(set) var capabilities: [String] = []

    /// The last value given for `key`.
    func value(_ key: String) -> String? {
        fields.last { $0.key == key }?.value
    }

    static func read() -> CredentialRequest {
        var request = CredentialRequest()
        while let line = Swift.readLine(strippingNewline: true), !line.isEmpty {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            let value = String(line[line.index(after: equals)...])
            if key == "capability[]" { request.capabilities.append(value) } else { request.fields.append((key, value)) }
        }
        return request
    }
}
