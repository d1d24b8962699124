import AuthVaultApp

/// `authvault git-credential get|store|erase` (also run as `git-credential-authvault`): git's credential helper
/// protocol. `get` answers with the profile's access token as the password; `store` and `erase` change nothing, so
/// a rejected push never signs the user out.
struct GitCredentialCommand: CLICommand {
    static let name = "git-credential"
    static let spec = CommandSpec(
        name: name,
        abstract: "git credential helper: the profile's token as the password for its hosts.",
        discussion: """
            Configure with 'authvault setup git --host git.example.com' (it writes git's helper entry and lists the
            host for the profile). Only https, and only a host (and port, when the entry names one) that a profile
            lists, gets an answer; anything else gets none, so git asks its other helpers. When several profiles
            list the host, --profile or $AUTHVAULT_PROFILE chooses among them; else the longest path prefix
            ('--host git.example.com/acme', with git's credential.useHttpPath) that matches the repository's path;
            else the profile whose signed-in user (user name or e-mail) is the user in the remote URL
            (https://alice@git.example.com/...); else the current profile or the one profile left; else no answer,
            and a line on standard error naming the candidates. Without a session it says which login to run; with
            'configure --helper-sign-in on' it signs in on the terminal first (one sign-in for helpers running at
            once: the others wait, saying so once on the terminal), unless GIT_TERMINAL_PROMPT=0 or --non-interactive
            forbids it.
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
            let target = HelperTarget(
                gitProtocol: request.value("protocol"), host: host, path: request.value("path"),
                username: request.value("username"))
        else {
            return
        }
        let token: HelperToken
        switch try await HelperToken.choice(for: target, context: context) {
        case .answer(let profile):
            token = try await HelperToken.fetch(.access, profile: profile, context: context.withoutPrompts())
        case .ambiguous(let candidates):
            // No answer, so git asks its other helpers; the one line says how to choose.
            context.standardError.line(
                "authvault: no token for \(host): profiles \(HelperToken.quoted(candidates)) all list it. Choose with "
                    + "--profile or $AUTHVAULT_PROFILE, with a user name in the remote URL (https://USER@\(host)/...), "
                    + "or with path prefixes ('authvault setup git --host \(host)/PATH' for each profile, which turns "
                    + "on credential.useHttpPath).")
            return
        case .notListed, .needsSignedInUsers:
            // No profile here lists it; where this machine leaves the choice to the agent, the agent's rules do.
            guard let served = try HelperToken.fromAgent(.access, for: target, context: context) else { return }
            token = served
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
