import AuthVaultApp
import NetworkHosts

/// `authvault whoami`: the signed-in user as Cognito describes them (GetUser), beside what the vault recorded.
struct WhoAmICommand: CLICommand {
    static let json = JSONOutput.option("the user", schema: "whoami")
    static let spec = CommandSpec(
        name: "whoami",
        abstract: "Show the signed-in user: Cognito's attributes and MFA settings, and the stored identity.",
        discussion: """
        Asks Cognito (GetUser) with the session's access token, or for a browser sign-in the authorization
        server's userinfo endpoint, refreshing the token first when due: exit status 3 when there is no session or
        the server no longer accepts it, 5 when it cannot be reached. 'authvault status' shows the stored session
        without contacting anyone.
        """,
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let report = try await application { () async throws(ApplicationError) in
            try await context.application.describeUser(profile: context.profileName)
        }
        if asJSON {
            try JSONOutput.write(report, to: context.standardOutput)
        } else {
            context.standardOutput.write(render(report))
        }
    }

    /// Every value here is the provider's (GetUser, userinfo, the ID token's claims): each is shown escaped.
    private func render(_ report: UserDescription) -> String {
        let shown = { (text: String) in ServerText.escaped(text) }
        var lines = ["Username:   \(shown(report.username))", "Profile:    \(report.profile)"]
        if let email = report.attributes["email"] { lines.append("E-mail:     \(shown(email))") }
        if let enabled = report.enabledMFA {
            lines.append("MFA:        " + (enabled.isEmpty ? "none"
                : shown(enabled.joined(separator: ", ")) + (report.preferredMFA.map { " (preferred: \(shown($0)))" } ?? "")))
        } else {
            lines.append("MFA:        (not told by the userinfo endpoint)")
        }
        if let federated = report.stored?.federated, !federated.isEmpty {
            lines.append("Federated:  " + shown(federated.map { "\($0.provider):\($0.userId)" }.joined(separator: ", ")))
        }
        if let stored = report.stored {
            lines.append("Session:    signed in as \(shown(stored.displayName))" + (stored.subject.map { " (sub \(shown($0)))" } ?? ""))
        }
        lines.append("Attributes:")
        let attributes = report.attributes.map { (name: shown($0.key), value: shown($0.value)) }.sorted { $0.name < $1.name }
        let width = attributes.map(\.name.count).max() ?? 0
        for (name, value) in attributes {
            lines.append("  \(name)\(String(repeating: " ", count: width - name.count))  \(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
