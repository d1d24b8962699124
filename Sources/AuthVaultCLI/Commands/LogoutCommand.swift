/// `authvault logout`: clears the local session first, then revokes it remotely.
struct LogoutCommand: CLICommand {
    static let global = OptionSpec.flag("global", help: "Also sign out everywhere (GlobalSignOut): every device's refresh token stops working.")
    static let spec = CommandSpec(
        name: "logout",
        abstract: "Sign out of the profile: forget the tokens here, then revoke them.",
        discussion: "Local state is cleared first; if a remote call fails, the local sign-out still stands and the failure is reported (exit status 5 when the network is at fault).",
        options: [global])

    let everywhere: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        everywhere = arguments.flag(Self.global)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        let result = await session.store.signOut(global: everywhere)
        context.standardError.line("Signed out of profile '\(session.profile.name)' on this machine.")
        if result.revoked == true { context.standardError.line("Revoked the refresh token.") }
        if result.signedOutGlobally == true { context.standardError.line("Signed out everywhere.") }
        guard result.isComplete else {
            let failures = result.remoteFailures.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            throw CLIError("Some remote steps failed: " + failures.joined(separator: "; ")
                           + ". The tokens are gone from this machine.", status: .networkUnavailable)
        }
    }
}
