import AuthCrypto
import AuthStore
import AuthVaultApp
import CognitoAuth
#if canImport(Glibc)
import Glibc
#endif

/// `authvault login`: signs in through the browser (the Hosted UI) or with a user name and password, answering
/// whatever Cognito asks.
struct LoginCommand: CLICommand {
    static let browser = OptionSpec.flag("browser", help: "Sign in through the browser (the default on a desktop when the profile has a Hosted UI).")
    static let noBrowser = OptionSpec.flag("no-browser", help: "Print the sign-in URL instead of opening a browser, and wait for its redirect here (SSH with port forwarding).")
    static let paste = OptionSpec.flag("paste", help: "Print the sign-in URL, then read the redirect URL (or the code) pasted from a browser on another machine.")
    static let browserCommand = OptionSpec.value("browser-command", placeholder: "cmd", help: "The command that opens the URL, given as its last argument.")
    static let identityProvider = OptionSpec.value("identity-provider", placeholder: "name", help: "The federated provider for this sign-in (default: the profile's, Google; '' for the Hosted UI page).")
    static let timeout = TypedOption<Int>("timeout", placeholder: "seconds", help: "How long to wait for the browser.",
                                          expected: "a whole number of seconds", default: 180) { Int($0).flatMap { $0 > 0 ? $0 : nil } }
    static let password = OptionSpec.flag("password", help: "Sign in with a user name and password (the default without a Hosted UI).")
    static let username = AccountOption.username
    static let passwordStdin = AccountOption.passwordStdin
    static let newPasswordStdin = OptionSpec.flag("new-password-stdin", help: "Read a required new password from the next line of standard input.")
    static let authFlow = TypedOption<AuthFlowChoice?>.optional("auth-flow", help: "Override the profile's flow (srp keeps the password on this machine).")
    static let mfaCode = CodeOption("mfa-code", what: "the MFA code")
    static let mfaType = MFACommands.methodOption("mfa-type", help: "The MFA method to use when Cognito lets you choose.")
    static let attribute = OptionSpec.repeatable("attribute", placeholder: "name=value", help: "A user attribute Cognito requires with a new password.")

    static let browserOptions = [browser, noBrowser, paste, browserCommand, identityProvider, timeout.spec]
    static let passwordOptions = [password, username, passwordStdin, newPasswordStdin, authFlow.spec] + mfaCode.options + [mfaType.spec, attribute]
    /// The order of the lines on standard input: the order the questions come in.
    static let stdinOrder = [passwordStdin, newPasswordStdin, mfaCode.stdin]

    static let spec = CommandSpec(
        name: "login",
        abstract: "Sign in to the profile's user pool, through the browser or with a password.",
        discussion: """
        With a Hosted UI configured, a desktop session (a terminal and $DISPLAY or $WAYLAND_DISPLAY) signs in through
        the browser: $BROWSER, else xdg-open (under WSL the Windows browser: wslview, else explorer.exe), or
        --browser-command. The URL is printed too. Over SSH with no display, the URL is printed with the 'ssh -L' line
        that forwards the sign-in's port from your machine. Without a display, use
        --no-browser (the redirect still comes to this machine: forward the port over SSH) or --paste (sign in on any
        machine and paste the URL its browser ended on). Without a terminal a browser is never opened unless asked.

        With a password, every question is asked in turn on a terminal (password without echo, a new password twice,
        the MFA code, the MFA method, authenticator set-up). Without a terminal, give the answers with
        --password-stdin, --new-password-stdin, --mfa-code-stdin, --mfa-type and --attribute; a missing answer is an
        error naming the option. Standard input holds one line per -stdin option given, in this order: the
        password, the new password, the MFA code. Each line is read when its question comes, so a script may write
        the MFA code (an SMS or e-mail code) after the password has gone through. --mfa-code puts the code on the
        command line instead, where other users of the machine can see it.
        """,
        options: browserOptions + passwordOptions)

    let arguments: ParsedArguments
    let browserTimeout: Duration
    let authFlowChoice: AuthFlowChoice?
    /// `--mfa-type`: the method to name when Cognito lets the user choose.
    let mfaType: MFAType?

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        authFlowChoice = try arguments.value(Self.authFlow)
        mfaType = try arguments.value(Self.mfaType)
        browserTimeout = .seconds(try arguments.value(Self.timeout))
        for pair in arguments.values(Self.attribute) where !pair.contains("=") {
            throw UsageError("Invalid value '\(pair)' for --attribute: expected name=value.")
        }
        try Self.mfaCode.checkNotBoth(arguments)
        let browserGiven = Self.browserOptions.filter { arguments.flag($0) || arguments.value($0) != nil }
        let passwordGiven = Self.passwordOptions.filter { arguments.flag($0) || !arguments.values($0).isEmpty }
        if let browserOption = browserGiven.first, let passwordOption = passwordGiven.first {
            throw UsageError("--\(browserOption.long) is for browser sign-in and --\(passwordOption.long) for password sign-in: choose one.")
        }
        let modes = [Self.browser, Self.noBrowser, Self.paste].filter { arguments.flag($0) }
        if modes.count > 1 {
            throw UsageError("Choose one of --browser, --no-browser and --paste.")
        }
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        guard let delivery = try browserDelivery(session.profile, context: context) else {
            return try await signInWithPassword(session, context: context)
        }
        let provider = arguments.value(Self.identityProvider).map { $0.isEmpty ? nil : $0 } ?? session.profile.identityProvider
        let summary = try await TerminalBrowserSignIn(session: session, context: context, identityProvider: provider, timeout: browserTimeout)
            .run(delivery)
        let via = summary.federated.first.map { " via \($0.provider)" } ?? ""
        context.standardError.line("Signed in as \(summary.user)\(via) (profile '\(session.profile.name)'; tokens in \(session.backend.rawValue)).")
    }

    /// Browser or password, and how the browser is reached; nil for a password sign-in.
    private func browserDelivery(_ profile: ResolvedProfile, context: CommandContext) throws(CLIError) -> TerminalBrowserSignIn.Delivery? {
        let asked = Self.browserOptions.contains { arguments.flag($0) || arguments.value($0) != nil }
        let passwordAsked = Self.passwordOptions.contains { arguments.flag($0) || !arguments.values($0).isEmpty }
        guard !passwordAsked else { return nil }
        guard profile.hasBrowserSignIn else {
            guard asked else { return nil }
            throw CLIError("Profile '\(profile.name)' has no Hosted UI for a browser sign-in: set one with 'authvault configure "
                + "--hosted-ui URL' (or --oidc-discovery URL), or sign in with --password.", status: .usage)
        }
        if arguments.flag(Self.paste) { return .paste }
        if arguments.flag(Self.noBrowser) { return .printURL }
        let command = arguments.value(Self.browserCommand)
        if arguments.flag(Self.browser) || command != nil {
            // Asked for by name: a script may drive a browser of its own, but --non-interactive never opens one.
            guard !context.promptsForbidden else {
                throw CLIError("--non-interactive never opens a browser: use --no-browser or --paste, or sign in with --password.", status: .usage)
            }
            return .openBrowser(try launcher(command: command, context: context))
        }
        guard context.isInteractive else {
            throw CLIError("No terminal, so no browser is opened: pass --browser (or --browser-command CMD) to open one anyway, "
                + "--no-browser or --paste to print the URL, or sign in with --password --password-stdin.", status: .usage)
        }
        switch BrowserHost.of(context) {
        case .desktop, .wsl:
            return .openBrowser(try launcher(command: nil, context: context))
        case .ssh:
            // The browser is at the far end: print the URL with the port forwarding that brings its redirect here.
            return .printURL
        case .none:
            throw CLIError("No desktop session here ($DISPLAY is not set), so no browser to open: use --no-browser (with SSH port "
                + "forwarding), --paste (sign in on another machine), or --password.", status: .usage)
        }
    }

    private func launcher(command: String?, context: CommandContext) throws(CLIError) -> ShellBrowserLauncher {
        guard let launcher = ShellBrowserLauncher.choose(command: command, environment: context.environment,
                                                         onWSL: BrowserHost.of(context) == .wsl) else {
            throw CLIError("No browser to open: set $BROWSER, install xdg-utils, pass --browser-command CMD, or use --no-browser or --paste.",
                           status: .usage)
        }
        return launcher
    }

    private func signInWithPassword(_ session: ProfileSession, context: CommandContext) async throws(CLIError) {
        var answers = ScriptedAnswers(arguments: arguments, mfaType: mfaType, context: context)
        let username = try answers.input.username()
        let password = try answers.input.password(Self.passwordStdin, prompt: "Password for \(username): ")
        let flow: AuthFlow = (authFlowChoice ?? session.profile.authFlow) == .password
            ? .userPassword : .userSRP

        var progress: SignInProgress
        do {
            progress = try await session.store.signIn(username: username, password: password, flow: flow)
        } catch {
            throw CLIErrors.from(error)
        }
        var wrongCodes = 0
        while case .challenge(let challenge) = progress {
            let answer = try await answers.answer(challenge, store: session.store, profile: session.profile, context: context)
            do {
                progress = try await session.store.answer(answer)
            } catch let error {
                if case .rejected(.codeMismatch) = error, context.isInteractive, wrongCodes < 2 {
                    wrongCodes += 1
                    context.standardError.line("That code is not right; try again.")
                    continue
                }
                throw CLIErrors.from(error)
            }
        }
        if case .signedIn(let summary) = progress {
            context.standardError.line("Signed in as \(summary.user) (profile '\(session.profile.name)'; tokens in \(session.backend.rawValue)).")
        }
    }
}

/// The answers a sign-in needs, from the command line and standard input (scripts) or the terminal (people).
private struct ScriptedAnswers {
    let arguments: ParsedArguments
    let mfaType: MFAType?
    let interactive: Bool
    /// The user name, the password and codes, read as the account commands read them.
    var input: AccountInput

    init(arguments: ParsedArguments, mfaType: MFAType?, context: CommandContext) {
        self.arguments = arguments
        self.mfaType = mfaType
        interactive = context.isInteractive
        input = AccountInput(arguments: arguments, context: context, stdinFlags: LoginCommand.stdinOrder)
    }

    mutating func answer(_ challenge: AuthChallenge, store: AuthStore, profile: ResolvedProfile,
                         context: CommandContext) async throws(CLIError) -> ChallengeAnswer {
        let prompter = context.prompter
        switch challenge.kind {
        case .newPasswordRequired:
            return .newPassword(try newPassword(prompter: prompter, context: context),
                                attributes: try requiredAttributes(challenge, prompter: prompter))
        case .smsMFA, .emailOTP, .softwareTokenMFA:
            let source = challenge.kind == .softwareTokenMFA ? "your authenticator app"
                : "the code sent to \(challenge.codeDeliveryDestination ?? "you")"
            return .code(try input.code(LoginCommand.mfaCode, prompt: "MFA code from \(source): "))
        case .selectMFAType:
            return .mfaType(try chooseMFAType(challenge.mfaTypes, prompter: prompter))
        case .mfaSetup:
            let secret: SoftwareTokenSecret
            do { secret = try await store.beginSoftwareTokenSetup() } catch { throw CLIErrors.from(error) }
            // The user's own authenticator secret, shown because Cognito requires them to set it up now.
            context.standardError.line("Cognito requires an authenticator app for this account.")
            secret.show(accountName: challenge.username, profile: profile.name, on: context.standardError)
            return .softwareTokenSetupCode(try input.code(LoginCommand.mfaCode, prompt: "First code from the authenticator app: "),
                                           friendlyDeviceName: "authvault")
        default:
            throw CLIError("Cognito asks for \(challenge.kind), which authvault cannot answer yet.")
        }
    }

    private mutating func newPassword(prompter: any SecretPrompter, context: CommandContext) throws(CLIError) -> SecretBytes {
        if let line = try input.pipedLine(LoginCommand.newPasswordStdin) { return line }
        guard interactive else {
            throw CLIError("Cognito requires a new password: pipe it in with --new-password-stdin.", status: .usage)
        }
        context.standardError.line("Cognito requires a new password for this account.")
        guard let first = prompter.readSecret(prompt: "New password: "), first.count > 0 else {
            throw CLIError("No new password was entered.", status: .usage)
        }
        guard prompter.readSecret(prompt: "Repeat the new password: ") == first else {
            throw CLIError("The two passwords differ; run 'authvault login' again.", status: .usage)
        }
        return first
    }

    private func requiredAttributes(_ challenge: AuthChallenge, prompter: any SecretPrompter) throws(CLIError) -> [String: String] {
        var given: [String: String] = [:]
        for pair in arguments.values(LoginCommand.attribute) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            given[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        for name in challenge.requiredAttributes where given[name] == nil {
            guard interactive, let value = prompter.readLine(prompt: "\(name): ") else {
                throw CLIError("Cognito requires the attribute '\(name)': pass --attribute \(name)=VALUE.", status: .usage)
            }
            given[name] = value
        }
        return given
    }

    private func chooseMFAType(_ offered: [MFAType], prompter: any SecretPrompter) throws(CLIError) -> MFAType {
        let names = MFACommands.types.filter { offered.contains($0.value) }.keys.sorted()
        if let mfaType {
            guard offered.contains(mfaType) else {
                throw CLIError("Cognito offers \(names.joined(separator: ", ")) for MFA, not \(mfaType.word).", status: .usage)
            }
            return mfaType
        }
        guard interactive, let answer = prompter.readLine(prompt: "MFA method (\(names.joined(separator: "/"))): "),
              let type = MFACommands.types[answer], offered.contains(type) else {
            throw CLIError("Cognito asks which MFA method to use: pass --mfa-type \(names.joined(separator: "|")).", status: .usage)
        }
        return type
    }

}
