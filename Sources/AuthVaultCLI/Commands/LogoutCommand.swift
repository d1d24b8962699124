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
        // Chosen before the tokens go; the logout page is opened once they are gone.
        let launcher = !inBrowser || context.promptsForbidden ? nil
            : ShellBrowserLauncher.choose(command: browserCommand, environment: context.environment, onWSL: BrowserHost.of(context) == .wsl)
        let signOut = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.signOut(profile: context.profileName, everywhere: everywhere, logoutPage: inBrowser)
        }
        let result = signOut.result
        if let page = signOut.logoutPage {
            openLogoutPage(page, launcher: launcher, site: signOut.atOtherProvider ? "provider" : "Hosted UI", context: context)
        }
        context.standardError.line("Signed out of profile '\(signOut.profile)' on this machine.")
        if result.revoked == true { context.standardError.line("Revoked the refresh token.") }
        if result.revocationUnavailable {
            context.standardError.line("The provider names no revocation endpoint, so its refresh token stays valid there until it expires "
                                       + "(\(Remedy.command("configure", profile: signOut.profile, "--revoke-url URL")) sets one).")
        }
        if result.signedOutGlobally == true { context.standardError.line("Signed out everywhere.") }
        guard result.isComplete else {
            let failures = result.remoteFailures.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            throw CLIError("Some remote steps failed: " + failures.joined(separator: "; ")
                           + ". The tokens are gone from this machine.", status: .networkUnavailable)
        }
    }

    /// - Parameter site: whose session it ends: the Hosted UI, or another OpenID provider.
    private func openLogoutPage(_ url: String, launcher: ShellBrowserLauncher?, site: String, context: CommandContext) {
        if let launcher, launcher.open(url, exited: { _ in }) {
            context.standardError.line("Opened the \(site)'s logout page in the browser, so its sign-in cookie goes too.")
        } else {
            context.standardError.line("To end the browser's \(site) session too, open: \(url)")
        }
    }
}
