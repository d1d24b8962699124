import AuthVaultApp

/// `authvault refresh`: new tokens now, whatever their expiry (after a change of groups or attributes, say).
struct RefreshCommand: CLICommand {
    static let name = "refresh"
    static let spec = CommandSpec(
        name: name,
        abstract: "Refresh the profile's tokens now.",
        discussion: """
            Tokens are refreshed ahead of expiry by themselves; this asks for new ones at once (new group memberships or
            attributes show in them). A rotated refresh token is in the vault before the command says it is done.
            Exit status 3 when there is no session or it is refused, 5 when the identity provider cannot be reached;
            either way the stored session is as it was, unless it was refused.
            """,
        options: [])

    init(arguments: ParsedArguments) throws(UsageError) {}

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        try await RunningAgent.unlockBeforeWriting(context, session)
        let summary: SessionSummary
        summary = try await application(for: session.profile.name) { () async throws(ApplicationError) in
            try await session.refreshNow()
        }
        let now = session.providerNow  // the provider's, which times the tokens
        context.standardError.line(
            "Refreshed the tokens of \(summary.user): the access token is valid until "
                + "\(TimeText.rfc3339(summary.accessTokenExpiresAt)) (\(TimeText.relative(summary.accessTokenExpiresAt, now: now)))."
        )
    }
}
