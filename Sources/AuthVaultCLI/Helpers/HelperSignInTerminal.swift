import AuthVaultApp

#if canImport(Glibc)
    import Glibc
#endif

/// A helper's own sign-in (`configure --helper-sign-in on`), after its token request said only a sign-in helps:
/// the sign-in a plain `login` chooses there (browser, device code, password), every word of it on /dev/tty, one at
/// a time across processes (`Application.afterHelperSignIn`), then the token. Never on the warm path: only after
/// that failure.
enum HelperSignInTerminal {
    /// Who can be reached and what the caller allows, for `profile`.
    static func reach(profile: String, context: CommandContext) -> HelperSignIn.Reach {
        let enabled = (try? context.configStore.profile(named: profile))?.helperSignIn ?? false
        let desktop = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(context.variables[$0] ?? "").isEmpty }
        return HelperSignIn.Reach(
            enabled: enabled, forbiddenBy: context.promptsForbiddenBy,
            hasTerminal: Terminal(atControllingTerminal: true).canAskForSecret, hasDesktop: desktop)
    }

    /// What `retry` gives after a sign-in on the terminal, or, where the helper may not sign in, `failure` worded
    /// with the login to run (and, when the user turned helper sign-in on, why it did not run).
    static func after<Served>(
        _ failure: ApplicationError, profile: String, context: CommandContext,
        retry: () async throws(ApplicationError) -> Served
    ) async throws(CLIError) -> Served {
        let authFlow = { (name: String) in try? context.configStore.profile(named: name).authFlow }
        let reach = reach(profile: profile, context: context)
        if let refusal = reach.refusal {
            let error = CLIErrors.from(failure, profile: profile, signInFlow: authFlow)
            guard let why = Self.words(refusal) else { throw error }
            throw CLIError(error.message + " " + why, status: error.status)
        }
        let descriptor = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY)
        defer { if descriptor >= 0 { close(descriptor) } }
        // A desktop with no terminal: what login says goes to standard error, the tool's log.
        let terminal = context.onControllingTerminal(
            descriptor >= 0 ? FileDescriptorOutput(descriptor: descriptor) : context.standardError)
        func signIn() async throws(CLIError) {
            terminal.standardError.line("authvault: profile '\(profile)' needs a sign-in (helper sign-in is on).")
            var arguments = ParsedArguments()
            // No terminal but a desktop: the browser, which a plain login opens only from a terminal.
            if !reach.hasTerminal { arguments.addFlag(LoginCommand.browser.long) }
            let login: LoginCommand
            do { login = try LoginCommand(arguments: arguments) } catch {
                throw CLIError(error.description, status: .usage)
            }
            let session = try await ProfileSession.open(terminal, profile: profile, devicePolicy: login.devicePolicy)
            try await login.signIn(session, context: terminal)
        }
        do throws(HelperSignIn.Failure<CLIError>) {
            return try await context.application.afterHelperSignIn(profile: profile, token: retry, signIn: signIn)
        } catch {
            switch error {
            case .token(let error): throw CLIErrors.from(error, profile: profile, signInFlow: authFlow)
            case .signIn(let error): throw error
            }
        }
    }

    /// Why a helper that was allowed to sign in did not; nil where the user never asked for it.
    private static func words(_ refusal: HelperSignIn.Refusal) -> String? {
        switch refusal {
        case .notEnabled: nil
        case .promptsForbidden(let by): "(Helper sign-in is on, but \(by) forbids prompts.)"
        case .nobodyToReach: "(Helper sign-in is on, but there is no terminal at /dev/tty and no desktop here.)"
        }
    }
}
