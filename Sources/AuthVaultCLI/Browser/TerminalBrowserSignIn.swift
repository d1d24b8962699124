import AuthVaultApp
import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// `authvault login` through the browser, the terminal's side of `BrowserSignIn` (which owns the listener): where the
/// URL is shown, the browser opened, the countdown and Ctrl-C while the listener waits, the pasted redirect read.
struct TerminalBrowserSignIn {
    /// How the authorize URL reaches a browser and the code comes back.
    enum Delivery {
        /// Open a browser here; the listener receives the redirect.
        case openBrowser(any BrowserLauncher)
        /// Print the URL and listen (a browser on this machine, or one reaching it through SSH port forwarding).
        case printURL
        /// Print the URL and read the redirect URL (or the code) the user pastes from a browser elsewhere.
        case paste
    }

    let signIn: BrowserSignIn
    let context: CommandContext

    init(session: ProfileSession, context: CommandContext, identityProvider: String?, timeout: Duration) {
        signIn = BrowserSignIn(session: session, identityProvider: identityProvider, timeout: timeout)
        self.context = context
    }

    func run(_ delivery: Delivery) async throws(CLIError) -> SessionSummary {
        if case .paste = delivery {
            let attempt = try await step { () async throws(BrowserSignInError) in try await signIn.begin() }
            let pasted = try pastedRedirect(attempt.request)
            return try await step { () async throws(BrowserSignInError) in
                try await signIn.redeem(pasted: pasted, of: attempt)
            }
        }
        // Watching before the port opens: a Ctrl-C as soon as it listens (or while it binds) cancels the wait.
        let cancel = BrowserSignInCancel()
        let interrupt = InterruptWatch { _ in cancel.fire() }
        let wait = TerminalWait(output: context.standardError, interrupt: interrupt) { request in
            announce(request, delivery: delivery)
        }
        return try await step { () async throws(BrowserSignInError) in
            try await signIn.signInThroughListener(presenter: wait, cancel: cancel)
        }
    }

    /// A step of the sign-in, its failure said in the command's terms.
    private func step<T>(_ body: () async throws(BrowserSignInError) -> T) async throws(CLIError) -> T {
        do { return try await body() } catch { throw Self.cliError(error, profile: signIn.session.profile.name) }
    }

    private func pastedRedirect(_ request: OAuthAuthorizationRequest) throws(CLIError) -> String {
        context.standardError.line(
            """
            Open this URL in a browser on any machine and sign in:

              \(request.url)

            The browser then goes to \(request.redirectURI), which fails to load there: copy the whole URL from its address
            bar (or only the value of its code parameter) and paste it here.
            """)
        if context.isInteractive {
            // It carries the code: no echo, and it never lands in the terminal's scroll-back.
            guard let secret = context.prompter.readSecret(prompt: "Redirect URL: ") else {
                throw CLIError(
                    "Nothing was pasted; run \(Remedy.command("login", profile: signIn.session.profile.name, "--paste")) again.",
                    status: .usage)
            }
            return secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
        guard let line = context.standardInput.firstLine() else {
            throw CLIError(
                "--paste reads the redirect URL from the terminal or standard input, and neither gave one.",
                status: .usage)
        }
        return String(decoding: line, as: UTF8.self)
    }
    private func announce(_ request: OAuthAuthorizationRequest, delivery: Delivery) {
        let via = request.identityProvider.map { " with \($0)" } ?? ""
        switch delivery {
        case .openBrowser(let launcher):
            context.standardError.line(
                "Opening the browser to sign in\(via) (profile '\(signIn.session.profile.name)'). If it does not open, visit:\n\n  \(request.url)\n"
            )
            let output = context.standardError
            let opened = launcher.open(request.url) { status in
                if status != 0 {
                    output.line(
                        "\nThe browser (\(launcher.source)) exited with status \(status): open the URL above yourself.")
                }
            }
            if !opened {
                context.standardError.line(
                    "Cannot start the browser (\(launcher.source)): open the URL above yourself.")
            }
        case .printURL, .paste:
            let port = OAuthRedirect.port(of: request.redirectURI)
            if case .ssh(let address, let sshPort) = BrowserHost.of(context) {
                context.standardError.line(
                    """
                    This is an SSH session with no display: sign in\(via) (profile '\(signIn.session.profile.name)') with the browser on your
                    own machine. First forward the sign-in's port there, in a terminal on that machine:

                      \(BrowserHost.forwardingCommand(port: port, serverAddress: address, serverPort: sshPort))

                    then open this URL in its browser:

                      \(request.url)

                    Or press Ctrl-C and run \(Remedy.command("login", profile: signIn.session.profile.name, "--paste")) to paste the address the browser ends on instead.

                    """)
                return
            }
            context.standardError.line(
                """
                Open this URL in a browser on this machine to sign in\(via) (profile '\(signIn.session.profile.name)'):

                  \(request.url)

                From another machine, forward the port first: ssh -L \(port):127.0.0.1:\(port) THIS-HOST

                """)
        }
    }

    private static func cliError(_ error: BrowserSignInError, profile: String) -> CLIError {
        switch error {
        case .failed(let error): CLIErrors.from(error, profile: profile)
        case .callback: CLIError(error.description, status: .failure)
        case .tokensRejected(let reason): rejectedTokens(reason, retry: Remedy.command("login", profile: profile))
        case .codeRefused:
            CLIError(
                "The authorization server refused the code (it was used already, or it expired): "
                    + "run \(Remedy.command("login", profile: profile)) again.", status: .signInRequired)
        }
    }

    /// Tokens of a sign-in that failed verification: most often the profile names another issuer or key set.
    /// - Parameter command: the sign-in to run again, quoted (`Remedy.command`).
    static func rejectedTokens(_ reason: Cause, retry command: String) -> CLIError {
        CLIError(
            "The tokens from the authorization server failed verification (\(reason)); nothing was stored. "
                + "Check the profile's --issuer and --jwks-url, then run \(command) again.", status: .failure)
    }
}

/// The port of a loopback redirect URI, for the SSH hint.
enum OAuthRedirect {
    static func port(of uri: String) -> String {
        guard let authority = uri.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first,
            let colon = authority.lastIndex(of: ":")
        else { return "PORT" }
        return String(authority[authority.index(after: colon)...])
    }
}

/// "Waiting for sign-in in the browser... 2:41 left, Ctrl-C to cancel", rewritten each second on a terminal's
/// standard error, and erased when the wait ends. Nothing at all when standard error is not a terminal.
final class Countdown: Sendable {
    /// The ticking task, and whether the line was erased; a tick writes only under the lock and before the erase.
    private let state = Locked<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))
    private let output: any TextOutput

    init(timeout: Duration, output: any TextOutput) {
        self.output = output
        guard isatty(2) == 1 else { return }
        let deadline = ContinuousClock.now + timeout
        let task = Task { [self] in
            while !Task.isCancelled {
                let left = max(0, Int((deadline - ContinuousClock.now).components.seconds))
                let seconds = left % 60 < 10 ? "0\(left % 60)" : "\(left % 60)"
                self.state.withLock { state in
                    guard !state.stopped else { return }
                    self.output.write(
                        "\r\u{1B}[KWaiting for sign-in in the browser... \(left / 60):\(seconds) left, Ctrl-C to cancel"
                    )
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        state.withLock { $0.task = task }
    }

    func stop() {
        state.withLock { state in
            guard let task = state.task, !state.stopped else { return }
            state.stopped = true
            task.cancel()
            output.write("\r\u{1B}[K")
        }
    }
}

/// The terminal while the listener waits: the URL shown (the browser opened), the countdown, and Ctrl-C taken until
/// the wait ends; from then on a Ctrl-C ends the process as usual, since nothing is stored until every check passed.
private final class TerminalWait: BrowserSignInPresenter {
    private let output: any TextOutput
    private let interrupt: InterruptWatch
    private let announce: @Sendable (OAuthAuthorizationRequest) -> Void
    private let countdown = Locked<Countdown?>(nil)

    init(
        output: any TextOutput, interrupt: InterruptWatch,
        announce: @escaping @Sendable (OAuthAuthorizationRequest) -> Void
    ) {
        self.output = output
        self.interrupt = interrupt
        self.announce = announce
    }

    func listening(_ request: OAuthAuthorizationRequest, timeout: Duration) {
        announce(request)
        countdown.withLock { $0 = Countdown(timeout: timeout, output: output) }
    }

    func waitEnded() {
        countdown.withLock { $0?.stop() }
        interrupt.stop()
    }
}
