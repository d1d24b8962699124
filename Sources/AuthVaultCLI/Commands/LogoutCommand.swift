import AuthVaultApp

/// `authvault logout`: clears the local session first, then revokes it remotely.
struct LogoutCommand: CLICommand {
    static let global = OptionSpec.flag("global", help: "Also sign out everywhere (GlobalSignOut): every device's refresh token stops working.")
    static let browser = OptionSpec.flag("browser", help: "Also open the Hosted UI's logout page, so the browser's sign-in cookie goes too.")
    static let browserCommand = OptionSpec.value("browser-command", placeholder: "cmd", help: "The command that opens the logout URL (implies --browser).")
    static let spec = CommandSpec(
        name: "logout",
        abstract: "Sign out of the profile: forget the tokens here, then revoke them.",
        discussion: "Local state is cleared first; if a remote call fails, the local sign-out still stands and the failure is reported (exit status 5 when the network is at fault).",
        options: [global, browser, browserCommand])

    let everywhere: Bool
    let inBrowser: Bool
    let browserCommand: String?

    init(arguments: ParsedArguments) throws(UsageError) {
        everywhere = arguments.flag(Self.global)
        browserCommand = arguments.value(Self.browserCommand)
        inBrowser = arguments.flag(Self.browser) || browserCommand != nil
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        if everywhere && session.profile.userPoolId == nil {
            throw CLIError("--global signs out of a Cognito user pool (GlobalSignOut), and profile '\(session.profile.name)' signs in at "
                           + "another OpenID provider: run 'authvault logout --browser' to end its session there. Nothing was changed.",
                           status: .usage)
        }
        // Built before the tokens go, so that a profile with no logout endpoint changes nothing.
        let logoutPage = inBrowser ? try await logoutURL(session, context: context) : nil
        let result = await session.store.signOut(global: everywhere)
        if let logoutPage {
            openLogoutPage(logoutPage, site: session.profile.userPoolId == nil ? "provider" : "Hosted UI", context: context)
        }
        context.standardError.line("Signed out of profile '\(session.profile.name)' on this machine.")
        if result.revoked == true { context.standardError.line("Revoked the refresh token.") }
        if result.revocationUnavailable {
            context.standardError.line("The provider names no revocation endpoint, so its refresh token stays valid there until it expires "
                                       + "('authvault configure --revoke-url URL' sets one).")
        }
        if result.signedOutGlobally == true { context.standardError.line("Signed out everywhere.") }
        guard result.isComplete else {
            let failures = result.remoteFailures.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            throw CLIError("Some remote steps failed: " + failures.joined(separator: "; ")
                           + ". The tokens are gone from this machine.", status: .networkUnavailable)
        }
    }

    /// The Hosted UI's logout URL for the browser. It names the client, never the ID token: the URL is on the
    /// browser's command line, where other local users can read it, and printed when no browser starts.
    private func logoutURL(_ session: ProfileSession, context: CommandContext) async throws(CLIError) -> (url: String, launcher: ShellBrowserLauncher?) {
        let launcher = context.promptsForbidden ? nil
            : ShellBrowserLauncher.choose(command: browserCommand, environment: context.environment, onWSL: BrowserHost.of(context) == .wsl)
        do {
            let client = try await session.authority.oauthClient()
            return (try client.logoutURL(postLogoutRedirectURI: session.profile.signOutURI), launcher)
        } catch {
            throw CLIError("Cannot sign out in the browser: \(error). Nothing was changed.", status: .usage)
        }
    }

    /// - Parameter site: whose session it ends: the Hosted UI, or another OpenID provider.
    private func openLogoutPage(_ page: (url: String, launcher: ShellBrowserLauncher?), site: String, context: CommandContext) {
        if let launcher = page.launcher, launcher.open(page.url, exited: { _ in }) {
            context.standardError.line("Opened the \(site)'s logout page in the browser, so its sign-in cookie goes too.")
        } else {
            context.standardError.line("To end the browser's \(site) session too, open: \(page.url)")
        }
    }
}
