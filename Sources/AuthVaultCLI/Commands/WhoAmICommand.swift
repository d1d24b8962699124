import CognitoAuth
import TokenVault

/// `authvault whoami`: the signed-in user as Cognito describes them (GetUser), beside what the vault recorded.
struct WhoAmICommand: CLICommand {
    static let json = OptionSpec.flag("json", help: "Print the user as JSON.")
    static let spec = CommandSpec(
        name: "whoami",
        abstract: "Show the signed-in user: Cognito's attributes and MFA settings, and the stored identity.",
        discussion: """
        Asks Cognito (GetUser) with the session's access token, refreshing it first when due: exit status 3 when
        there is no session or Cognito no longer accepts it, 5 when Cognito cannot be reached. 'authvault status'
        shows the stored session without contacting Cognito.
        """,
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    private struct Report: Encodable {
        let profile: String
        let username: String
        let attributes: [String: String]
        let preferredMFA: String?
        let enabledMFA: [String]
        /// What the vault recorded at sign-in, from the verified ID token.
        let stored: UserIdentity?
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        let accessToken = try await session.accessToken()
        let user = try await session.call({ client throws(CognitoError) in try await client.user(accessToken: accessToken) },
                                          failure: ProfileSession.tokenCallError)
        let report = Report(profile: session.profile.name, username: user.username, attributes: user.attributes,
                            preferredMFA: user.preferredMFA?.rawValue, enabledMFA: user.enabledMFA.map(\.rawValue),
                            stored: await session.store.storedRecord?.identity)
        if asJSON {
            try JSONOutput.write(report, to: context.standardOutput)
        } else {
            context.standardOutput.write(render(report))
        }
    }

    private func render(_ report: Report) -> String {
        var lines = ["Username:   \(report.username)", "Profile:    \(report.profile)"]
        if let email = report.attributes["email"] { lines.append("E-mail:     \(email)") }
        lines.append("MFA:        " + (report.enabledMFA.isEmpty ? "none"
            : report.enabledMFA.joined(separator: ", ") + (report.preferredMFA.map { " (preferred: \($0))" } ?? "")))
        if let federated = report.stored?.federated, !federated.isEmpty {
            lines.append("Federated:  " + federated.map { "\($0.provider):\($0.userId)" }.joined(separator: ", "))
        }
        if let stored = report.stored {
            lines.append("Session:    signed in as \(stored.displayName)" + (stored.subject.map { " (sub \($0))" } ?? ""))
        }
        lines.append("Attributes:")
        let width = report.attributes.keys.map(\.count).max() ?? 0
        for (name, value) in report.attributes.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name)\(String(repeating: " ", count: width - name.count))  \(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
