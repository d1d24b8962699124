import AuthVaultApp

#if canImport(Glibc)
    import Glibc
#endif

/// `authvault login`: signs in through the browser (the Hosted UI) or with a user name and password, answering
/// whatever Cognito asks.
struct LoginCommand: CLICommand {
    static let browser = OptionSpec.flag(
        "browser", help: "Sign in through the browser (the default on a desktop when the profile has a Hosted UI).")
    static let noBrowser = OptionSpec.flag(
        "no-browser",
        help:
            "Print the sign-in URL instead of opening a browser, and wait for its redirect here (SSH with port forwarding)."
    )
    static let paste = OptionSpec.flag(
        "paste",
        help:
            "Print the sign-in URL, then read the redirect URL (or the code) pasted from a browser on another machine.")
    static let device = OptionSpec.flag(
        "device",
        help:
            "Sign in from another device's browser with a code (OpenID providers with the device grant; works without a terminal)."
    )
    static let noQR = OptionSpec.flag(
        "no-qr",
        help: "With a device code, do not draw its address as a QR code (drawn only on a UTF-8 terminal wide enough).")
    static let browserCommand = OptionSpec.value(
        "browser-command", placeholder: "cmd", help: "The command that opens the URL, given as its last argument.")
    static let identityProvider = OptionSpec.value(
        "identity-provider", placeholder: "name",
        help:
            "The federated provider for this sign-in (default: the profile's, if it names one; '' for the Hosted UI page)."
    )
    /// Up to an hour: the browser's sign-in page and Cognito's challenge session do not wait longer anyway.
    static let timeout = TypedOption<Int>(
        "timeout", unit: "seconds", help: "How long to wait for the browser.", range: 1...3600, default: 180)
    static let password = OptionSpec.flag(
        "password", help: "Sign in with a user name and password (the default without a Hosted UI).")
    static let username = AccountOption.username
    static let passwordStdin = AccountOption.passwordStdin
    static let newPasswordStdin = OptionSpec.flag(
        "new-password-stdin", help: "Read a required new password from the next line of standard input.")
    static let authFlow = TypedOption<AuthFlowChoice?>.optional(
        "auth-flow",
        help: "Sign in this way instead of the profile's: srp or password (srp keeps the password on this machine), "
            + "email-otp or sms-otp (a code Cognito sends, no password), choice (among what Cognito offers), custom (the pool's own challenges)."
    )
    static let challenge = TypedOption<FirstFactorChoice?>.optional(
        "challenge",
        help: "With --auth-flow choice (implied): how to sign in when Cognito offers the choice (asked on a terminal).")
    static let code = CodeOption("code", what: "the code Cognito sends for email-otp or sms-otp")
    static let answerStdin = OptionSpec.flag(
        "answer-stdin", help: "Read the answer to each custom challenge from the next line of standard input.")
    static let mfaCode = CodeOption("mfa-code", what: "the MFA code")
    static let mfaType = MFACommands.methodOption(
        "mfa-type", help: "The MFA method to use when Cognito lets you choose.")
    static let attribute = OptionSpec.repeatable(
        "attribute", placeholder: "name=value", help: "A user attribute Cognito requires with a new password.")
    static let rememberDevice = OptionSpec.flag(
        "remember-device",
        help: "Where the pool leaves it to the user, have Cognito remember this machine (it may then skip MFA).")
    static let deviceName = OptionSpec.value(
        "device-name", placeholder: "name",
        help: "The name this machine gets as a remembered device (default: the host name).")

    static let force = OptionSpec.flag(
        "force",
        help: "Sign in again even though the profile has a usable session (login otherwise says whose, and stops).")

    static let browserOptions = [browser, noBrowser, paste, device, browserCommand, identityProvider, timeout.spec]
    static let passwordOptions =
        [password, username, passwordStdin, newPasswordStdin, authFlow.spec, challenge.spec] + code.options
        + [answerStdin] + mfaCode.options + [mfaType.spec, attribute, rememberDevice, deviceName]
    /// The order of the lines on standard input: the order the questions come in.
    static let stdinOrder = [passwordStdin, newPasswordStdin, code.stdin, mfaCode.stdin, answerStdin]

    static let name = "login"

    static let spec = CommandSpec(
        name: name,
        abstract:
            "Sign in through the browser (Hosted UI, any OpenID provider) or to the user pool with a password or a code.",
        discussion: """
            With a Hosted UI configured, a desktop session (a terminal and $DISPLAY or $WAYLAND_DISPLAY) signs in through
            the browser: $BROWSER, else xdg-open (under WSL the Windows browser: wslview, else explorer.exe), or
            --browser-command. The URL is printed too. Over SSH with no display, the URL is printed with the 'ssh -L' line
            that forwards the sign-in's port from your machine. Without a display, use
            --no-browser (the redirect still comes to this machine: forward the port over SSH) or --paste (sign in on any
            machine and paste the URL its browser ended on). Without a terminal a browser is never opened unless asked.

            --device signs in with the device authorization grant of an OpenID provider that offers it (its discovery
            document's device_authorization_endpoint, or configure --device-authorization-url): a code is printed with
            the address where any browser approves it, and login waits for the approval (Ctrl-C cancels); it needs no
            terminal. On a terminal whose locale is UTF-8 and that is wide enough, the address (with the code, where the
            provider gives one) is also drawn as a QR code for a phone's camera (libqrencode4), beside the text where
            the terminal is wide enough for both, else below it; --no-qr leaves it out,
            and it never goes to a pipe. On a terminal with no browser to open (no display, or SSH), a plain login uses it and says so.
            Cognito has no device grant: use --paste, or --no-browser with SSH port forwarding.

            With a password, every question is asked in turn on a terminal (password without echo, a new password twice,
            the MFA code, the MFA method, authenticator set-up). Without a terminal, give the answers with
            --password-stdin, --new-password-stdin, --mfa-code-stdin, --mfa-type and --attribute; a missing answer is an
            error naming the option. Standard input holds one line per -stdin option given, in this order: the
            password, the new password, the MFA code. Each line is read when its question comes, so a script may write
            the MFA code (an SMS or e-mail code) after the password has gone through. --mfa-code puts the code on the
            command line instead, where other users of the machine can see it. A password typed at the terminal that
            Cognito refuses is asked again, three tries in all. The encrypted file vault's passphrase is never read from
            standard input: it is asked on the terminal even while standard input is a pipe (the first time with what it
            protects and how long it is remembered), and without a terminal it comes from AUTHVAULT_VAULT_PASSPHRASE_FILE.

            Without a password: --auth-flow email-otp or sms-otp has Cognito send a code (said where it went) that is
            asked for, or read with --code-stdin when it is sent; a wrong code is asked again (the next line). With
            --auth-flow choice Cognito lists the ways this user may sign in, and --challenge picks one. --auth-flow
            custom answers the pool's own challenges, each shown, from the terminal or --answer-stdin (a line each).
            A code line comes after the password lines, the custom answers last.

            With a usable session already there (a refresh token not known to have ended, or an access token still
            valid), login changes nothing: it says whose session it is and until when, and exits 0 without contacting
            anyone. --force signs in again, and so does a --username other than the signed-in user (name or e-mail).
            A session whose refresh token expired or was rejected, or a sign-in left half-way, is no sign-in.

            A sign-in that Cognito reports from a new device makes this machine a remembered device (named by
            --device-name, else the host name): its key and secret stay in the vault after sign-out, and later sign-ins
            prove it, so a pool that remembers devices skips MFA. See 'authvault devices'.
            """,
        options: [force] + browserOptions + [noQR] + passwordOptions)

    let arguments: ParsedArguments
    let browserTimeout: Duration
    let authFlowChoice: AuthFlowChoice?
    /// `--challenge`: the first factor to pick when Cognito offers a choice.
    let firstFactor: FirstFactorChoice?
    /// `--mfa-type`: the method to name when Cognito lets the user choose.
    let mfaType: MFAType?

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        let flow = try arguments.value(Self.authFlow)
        firstFactor = try arguments.value(Self.challenge)
        if let flow, firstFactor != nil, flow != .choice {
            throw UsageError(
                "--challenge answers Cognito's choice: use it with --auth-flow choice, not \(flow.rawValue).")
        }
        authFlowChoice = firstFactor != nil ? .choice : flow
        mfaType = try arguments.value(Self.mfaType)
        browserTimeout = .seconds(try arguments.value(Self.timeout))
        for pair in arguments.values(Self.attribute) where !pair.contains("=") {
            throw UsageError("Invalid value '\(pair)' for --attribute: expected name=value.")
        }
        try Self.mfaCode.checkNotBoth(arguments)
        try Self.code.checkNotBoth(arguments)
        let browserGiven = Self.browserOptions.filter { arguments.flag($0) || arguments.value($0) != nil }
        let passwordGiven = Self.passwordOptions.filter { arguments.flag($0) || !arguments.values($0).isEmpty }
        if let browserOption = browserGiven.first, let passwordOption = passwordGiven.first {
            throw UsageError(
                "--\(browserOption.long) is for browser sign-in and --\(passwordOption.long) for password sign-in: choose one."
            )
        }
        let modes = [Self.browser, Self.noBrowser, Self.paste, Self.device].filter { arguments.flag($0) }
        if modes.count > 1 || (arguments.flag(Self.device) && arguments.value(Self.browserCommand) != nil) {
            throw UsageError("Choose one of --browser, --no-browser, --paste and --device.")
        }
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context, devicePolicy: devicePolicy)
        if !arguments.flag(Self.force),
            case .alreadySignedIn(let existing) = await session.loginNeed(
                forUser: arguments.value(Self.username), now: TimeText.now)
        {
            return Self.sayAlreadySignedIn(existing, profile: session.profile.name, context: context)
        }
        try await signIn(session, context: context)
    }

    /// How a device Cognito reports as new is remembered: `--device-name` (else the host name), `--remember-device`.
    var devicePolicy: DevicePolicy {
        DevicePolicy(
            name: arguments.value(Self.deviceName) ?? Self.hostName(), remember: arguments.flag(Self.rememberDevice))
    }

    /// The sign-in this login's options choose where it runs; a plain login's is also what a helper runs when it
    /// signs in itself (`HelperSignInTerminal`).
    func signIn(_ session: ProfileSession, context: CommandContext) async throws(CLIError) {
        let route = try route(session.profile, context: context)
        try await RunningAgent.unlockBeforeWriting(context, session)
        let summary: SessionSummary
        switch route {
        case .machine: return try await fetchMachineToken(session, context: context)
        case .userPool: return try await signInWithAPI(session, context: context)
        case .device:
            summary = try await TerminalDeviceSignIn(
                session: session, context: context,
                qrCode: DeviceCodeQR(
                    enabled: !arguments.flag(Self.noQR), environment: context.environment,
                    descriptor: (context.standardError as? FileDescriptorOutput)?.descriptor ?? 2)
            ).run()
        case .browser(let delivery):
            let provider =
                arguments.value(Self.identityProvider).map { $0.isEmpty ? nil : $0 } ?? session.profile.identityProvider
            summary = try await TerminalBrowserSignIn(
                session: session, context: context, identityProvider: provider, timeout: browserTimeout
            )
            .run(try terminalDelivery(delivery, context: context))
        }
        let via = summary.federated.first.map { " via \(ServerText.escaped($0.provider))" } ?? ""
        context.standardError.line(
            "Signed in as \(ServerText.escaped(summary.user))\(via) (profile '\(session.profile.name)'; tokens in \(session.backend.rawValue))."
        )
    }

    /// Nothing new to do: whose session, until when, and how to sign in again anyway.
    private static func sayAlreadySignedIn(_ existing: ExistingSignIn, profile: String, context: CommandContext) {
        let who =
            ServerText.escaped(existing.username) + (existing.email.map { " (\(ServerText.escaped($0)))" } ?? "")
        let when = "\(TimeText.rfc3339(existing.until)), \(TimeText.relative(existing.until, now: TimeText.now))"
        let until =
            switch existing.bound {
            case .refreshToken: "until \(when), when its refresh token ends"
            case .accessToken where existing.until > TimeText.now: "its access token valid until \(when)"
            case .accessToken: "its access token expired \(when), refreshed when next asked for"
            }
        context.standardError.line(
            "Already signed in as \(who) (profile '\(profile)'), \(until). "
                + "\(Remedy.command("login", profile: profile, "--force")) signs in again.")
    }

    /// A machine profile has no one to sign in: its token is fetched now, as 'authvault token' would when due.
    private func fetchMachineToken(_ session: ProfileSession, context: CommandContext) async throws(CLIError) {
        let summary: SessionSummary
        summary = try await application(for: session.profile.name) { () async throws(ApplicationError) in
            try await session.refreshNow()
        }
        context.standardError.line(
            "Profile '\(session.profile.name)' signs in as app client \(ServerText.escaped(summary.user)) (client credentials): no login "
                + "is needed, 'authvault token' fetches a token when due. Fetched one now, valid until \(TimeText.rfc3339(summary.accessTokenExpiresAt))."
        )
    }

    /// What the options ask for, in the application's terms.
    private var asked: SignInRoute.Asked {
        let modes: [SignInRoute.Asked.Mode] = [.device, .paste, .noBrowser, .browser]
        let mode = modes.first { arguments.flag(Self.option(for: $0)) }
        return SignInRoute.Asked(
            mode: mode, browserCommand: arguments.value(Self.browserCommand),
            browserOptionGiven: Self.browserOptions.contains { arguments.flag($0) || arguments.value($0) != nil },
            userPoolOptionGiven: Self.passwordOptions.contains { arguments.flag($0) || !arguments.values($0).isEmpty })
    }

    /// The option that asks for `mode` by name (a remedy names it too).
    static func option(for mode: SignInRoute.Asked.Mode) -> OptionSpec {
        switch mode {
        case .browser: browser
        case .noBrowser: noBrowser
        case .paste: paste
        case .device: device
        }
    }

    /// The application's choice (`SignInRoute.choose`), its refusals worded with login's options. A device code
    /// chosen for a plain login is said; without a terminal a plain login never waits.
    private func route(_ profile: ResolvedProfile, context: CommandContext) throws(CLIError) -> SignInRoute {
        let route: SignInRoute
        do {
            route = try SignInRoute.choose(
                asked, profile: profile, interactive: context.isInteractive,
                promptsForbidden: context.promptsForbidden, host: BrowserHost.of(context))
        } catch {
            throw Self.cliError(error, profile: profile.name)
        }
        if route == .device(automatic: true) {
            context.standardError.line(
                "No browser can be opened here, so this sign-in uses a code approved in a browser on any device "
                    + "(as 'authvault login --device'; --paste and --no-browser are the other ways).")
        }
        return route
    }

    private static func cliError(_ refusal: SignInRoute.Refusal, profile: String) -> CLIError {
        switch refusal {
        case .device(let error): return TerminalDeviceSignIn.cliError(error, profile: profile)
        case .noBrowserSignIn:
            return CLIError(
                "Profile '\(profile)' has no Hosted UI for a browser sign-in: set one with "
                    + "\(Remedy.command("configure", profile: profile, "--hosted-ui URL")) (or --oidc-discovery URL), or sign in with --password.",
                status: .usage)
        case .browserWhilePromptsForbidden:
            return CLIError(
                "--non-interactive never opens a browser: use --no-browser or --paste, or sign in with --password.",
                status: .usage)
        case .noTerminal:
            return CLIError(
                "No terminal, so no browser is opened: pass --browser (or --browser-command CMD) to open one anyway, "
                    + "--no-browser or --paste to print the URL, or sign in with --password --password-stdin.",
                status: .usage)
        case .noDesktop:
            return CLIError(
                "No desktop session here ($DISPLAY is not set), so no browser to open: use --no-browser (with SSH port "
                    + "forwarding), --paste (sign in on another machine), or --password.", status: .usage)
        }
    }

    /// The chosen delivery as the terminal carries it out: a browser to open is found here (it starts a process).
    private func terminalDelivery(_ delivery: SignInRoute.BrowserDelivery, context: CommandContext) throws(CLIError)
        -> TerminalBrowserSignIn.Delivery
    {
        switch delivery {
        case .paste: .paste
        case .printURL: .printURL
        case .open(let command): .openBrowser(try launcher(command: command, context: context))
        }
    }

    private func launcher(command: String?, context: CommandContext) throws(CLIError) -> ShellBrowserLauncher {
        guard
            let launcher = ShellBrowserLauncher.choose(
                command: command, environment: context.environment,
                onWSL: BrowserHost.of(context) == .wsl)
        else {
            throw CLIError(
                "No browser to open: set $BROWSER, install xdg-utils, pass --browser-command CMD, or use --no-browser or --paste.",
                status: .usage)
        }
        return launcher
    }

    /// A sign-in with the user-pool API: a password, a code Cognito sends, a choice or custom challenges.
    private func signInWithAPI(_ session: ProfileSession, context: CommandContext) async throws(CLIError) {
        let answers = ChallengeAnswers(
            arguments: arguments, mfaType: mfaType, firstFactor: firstFactor, context: context)
        let username = try answers.input.username()
        var dialogue = SignInDialogue(
            session: session, context: context, answers: answers, remembersDevice: arguments.flag(Self.rememberDevice))
        let summary = try await dialogue.run(username: username, flow: authFlowChoice ?? session.profile.authFlow)
        context.standardError.line(
            "Signed in as \(ServerText.escaped(summary.user)) (profile '\(session.profile.name)'; tokens in \(session.backend.rawValue))."
        )
    }

    /// This machine's name, for its remembered device.
    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "authvault" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "authvault" : name
    }
}
