import AuthVaultApp

/// `authvault logout`: clears the local session first, then revokes it remotely.
struct LogoutCommand: CLICommand {
    static let global = OptionSpec.flag(
        "global", help: "Also sign out everywhere (GlobalSignOut): every device's refresh token stops working.")
    static let browser = OptionSpec.flag(
        "browser", help: "Also open the Hosted UI's logout page, so the browser's sign-in cookie goes too.")
    static let browserCommand = OptionSpec.value(
        "browser-command", placeholder: "cmd", help: "The command that opens the logout URL (implies --browser).")
    static let forget = OptionSpec.flag(
        "forget",
        help:
            "Give up revoking the refresh tokens an earlier logout could not revoke (they stay valid at the server until they expire), and this one's if it cannot be revoked now."
    )
    static let name = "logout"
    static let spec = CommandSpec(
        name: name,
        abstract: "Sign out of the profile: forget the tokens here, then revoke them.",
        discussion: """
            Local state is cleared first; if a remote call fails, the local sign-out still stands and the failure is reported \
            (exit status 5 when the network is at fault). A refresh token that could not be revoked for want of the network is \
            kept, encrypted in the vault and never used to sign in, and revoked at the next logout, login or refresh; \
            'authvault status' shows it until then. --forget drops it without revoking it.
            """,
        options: [global, browser, browserCommand, forget])

    let everywhere: Bool
    let inBrowser: Bool
    let browserCommand: String?
    let forgetPending: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        everywhere = arguments.flag(Self.global)
        forgetPending = arguments.flag(Self.forget)
        browserCommand = arguments.value(Self.browserCommand)
        inBrowser = arguments.flag(Self.browser) || browserCommand != nil
    }

    func run(in context: CommandContext) async throws(CLIError) {
        // Chosen before the tokens go; the logout page is opened once they are gone.
        let launcher =
            !inBrowser || context.promptsForbidden
            ? nil
            : ShellBrowserLauncher.choose(
                command: browserCommand, environment: context.environment, onWSL: BrowserHost.of(context) == .wsl)
        let signOut = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.signOut(
                profile: context.profileName, everywhere: everywhere, logoutPage: inBrowser,
                forgetPending: forgetPending)
        }
        let result = signOut.result
        if let page = signOut.logoutPage {
            openLogoutPage(
                page, launcher: launcher, site: signOut.atOtherProvider ? "provider" : "Hosted UI", context: context)
        }
        context.standardError.line("Signed out of profile '\(signOut.profile)' on this machine.")
        if result.revoked == true { context.standardError.line("Revoked the refresh token.") }
        if result.revocationUnavailable {
            context.standardError.line(
                "The provider names no revocation endpoint, so its refresh token stays valid there until it expires "
                    + "(\(Remedy.command("configure", profile: signOut.profile, "--revoke-url URL")) sets one).")
        }
        if result.signedOutGlobally == true { context.standardError.line("Signed out everywhere.") }
        if let earlier = result.earlierRevocations, earlier.revoked > 0 {
            context.standardError.line("Revoked the refresh token an earlier logout could not revoke, too.")
        }
        if result.forgottenRevocations > 0 {
            context.standardError.line(
                "Forgot \(result.forgottenRevocations) refresh token(s) without revoking them, as asked: "
                    + "they stay valid at the server until they expire.")
        }
        for pending in signOut.pendingRevocations {
            context.standardError.line(
                PendingRevocationWords.sentence(
                    profile: signOut.profile, validUntil: pending.validUntil.map(TimeText.rfc3339),
                    byDefault: pending.validUntil == nil ? pending.validUntilByDefault.map(TimeText.rfc3339) : nil))
        }
        guard result.isComplete else {
            if result.remoteFailures.isEmpty, let earlier = result.earlierRevocations, let failure = earlier.failure {
                throw earlier.stillPending > 0
                    ? CLIError(
                        "Revoking the earlier refresh token failed again: \(failure)", status: .networkUnavailable)
                    : CLIError(
                        "The earlier refresh token could not be revoked, and is no longer kept: \(failure) "
                            + "It stays valid at the server until it expires.", status: .networkUnavailable)
            }
            let failures = result.remoteFailures.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            throw CLIError(
                "Some remote steps failed: " + failures.joined(separator: "; ")
                    + ". The tokens are gone from this machine"
                    + (result.keptForRetry
                        ? "; the refresh token is kept, encrypted, to revoke at the next logout, login or refresh."
                        : "."),
                status: .networkUnavailable)
        }
    }

    /// - Parameter site: whose session it ends: the Hosted UI, or another OpenID provider.
    private func openLogoutPage(_ url: String, launcher: ShellBrowserLauncher?, site: String, context: CommandContext) {
        if let launcher, launcher.open(url, exited: { _ in }) {
            context.standardError.line(
                "Opened the \(site)'s logout page in the browser, so its sign-in cookie goes too.")
        } else {
            context.standardError.line("To end the browser's \(site) session too, open: \(url)")
        }
    }
}
