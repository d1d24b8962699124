import AuthVaultApp

/// `authvault whoami`: the signed-in user as Cognito describes them (GetUser), beside what the vault recorded; for a
/// machine profile, its app client.
struct WhoAmICommand: CLICommand {
    static let json = JSONOutput.option("the user", schema: "whoami")
    static let name = "whoami"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show the signed-in user: Cognito's attributes and MFA settings, and the stored identity.",
        discussion: """
            Asks Cognito (GetUser) with the session's access token, or for a browser sign-in the authorization
            server's userinfo endpoint, refreshing the token first when due: exit status 3 when there is no session or
            the server no longer accepts it, 5 when it cannot be reached. A machine profile (--grant client-credentials)
            has no user: it shows the app client, its scopes and its token's expiry, fetching a token when due.
            'authvault status' shows the stored session without contacting anyone.
            """,
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let identity = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.describeIdentity(profile: context.profileName)
        }
        switch identity {
        case .user(let report) where asJSON: try JSONOutput.write(report, to: context.standardOutput)
        case .user(let report): context.standardOutput.write(render(report))
        case .machine(let client) where asJSON: try JSONOutput.write(client, to: context.standardOutput)
        case .machine(let client): context.standardOutput.write(render(client))
        }
    }

    /// A machine profile has no user: its app client, the scopes it asks for, and until when its token lasts.
    private func render(_ client: MachineDescription) -> String {
        let expiry = client.accessTokenExpiresAt.map {
            "valid until \(TimeText.rfc3339($0)) (\(TimeText.relative($0, now: TimeText.now)))"
        }
        return [
            "Client:     \(client.clientId) (machine sign-in: client credentials, no user)",
            "Profile:    \(client.profile)",
            "Scopes:     \(client.scopes.isEmpty ? "the app client's own" : client.scopes.joined(separator: " "))",
            "Access:     \(expiry ?? "valid (the provider did not say until when)")",
        ].joined(separator: "\n") + "\n"
    }

    /// Every value here is the provider's (GetUser, userinfo, the ID token's claims): each is shown escaped.
    private func render(_ report: UserDescription) -> String {
        let shown = { (text: String) in ServerText.escaped(text) }
        var lines = ["Username:   \(shown(report.username))", "Profile:    \(report.profile)"]
        if let email = report.attributes["email"] { lines.append("E-mail:     \(shown(email))") }
        if let enabled = report.enabledMFA {
            lines.append(
                "MFA:        "
                    + (enabled.isEmpty
                        ? "none"
                        : shown(enabled.joined(separator: ", "))
                            + (report.preferredMFA.map { " (preferred: \(shown($0)))" } ?? "")))
        } else {
            lines.append("MFA:        (not told by the userinfo endpoint)")
        }
        if let federated = report.stored?.federated, !federated.isEmpty {
            lines.append(
                "Federated:  " + shown(federated.map { "\($0.provider):\($0.userId)" }.joined(separator: ", ")))
        }
        if let stored = report.stored {
            lines.append(
                "Session:    signed in as \(shown(stored.displayName))"
                    + (stored.subject.map { " (sub \(shown($0)))" } ?? ""))
        }
        lines.append("Attributes:")
        let attributes = report.attributes.map { (name: shown($0.key), value: shown($0.value)) }.sorted {
            $0.name < $1.name
        }
        let width = attributes.map(\.name.count).max() ?? 0
        for (name, value) in attributes {
            lines.append("  \(name)\(String(repeating: " ", count: width - name.count))  \(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
