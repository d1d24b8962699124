import AuthStore
import CognitoAuth
import Loopback
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `authvault login` through the Hosted UI (or any OpenID provider): the authorization-code flow with PKCE, the
/// code received by a loopback listener on a registered redirect URI or pasted by the user, the ID token verified
/// with this sign-in's nonce, and the session handed to the store.
struct BrowserSignIn {
    /// How the authorize URL reaches a browser and the code comes back.
    enum Delivery {
        /// Open a browser here; the listener receives the redirect.
        case openBrowser(BrowserLauncher)
        /// Print the URL and listen (a browser on this machine, or one reaching it through SSH port forwarding).
        case printURL
        /// Print the URL and read the redirect URL (or the code) the user pastes from a browser elsewhere.
        case paste
    }

    let session: ProfileSession
    let context: CommandContext
    /// Cognito's `identity_provider`; nil shows the Hosted UI's own page.
    let identityProvider: String?
    let timeout: Duration

    func run(_ delivery: Delivery) async throws(CLIError) -> SessionSummary {
        let client: OAuthClient
        do { client = try await session.authority.oauthClient() } catch { throw CLIErrors.from(error) }
        let request = client.authorizationRequest(identityProvider: identityProvider)
        if case .paste = delivery {
            return try await signInWithPastedRedirect(request, client: client)
        }
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(redirectURIs: session.profile.redirectURIs, state: request.state, timeout: timeout)
        } catch {
            throw Self.cliError(error)
        }
        // The first free registered port decides the redirect URI; the state, nonce and verifier stay.
        let listening = request.redirected(to: listener.redirectURI)
        announce(listening, delivery: delivery)
        let interrupt = InterruptWatch { _ in listener.cancel() }
        let countdown = Countdown(timeout: timeout, output: context.standardError)
        let received: AuthorizationCallback
        do {
            defer {
                countdown.stop()
                // From here a Ctrl-C ends the process as usual: nothing is stored until every check has passed.
                interrupt.stop()
            }
            received = try await listener.waitForCallback()
        } catch {
            throw Self.cliError(error)
        }
        do {
            let summary = try await redeem(try listening.authorizationCode(fromCallback: received.url), of: listening, client: client)
            received.respond(with: .success("Signed in as \(summary.user) — you can close this tab."))
            return summary
        } catch {
            received.respond(with: .failure("The sign-in could not be completed. Return to the terminal for details; you can close this tab."))
            throw error
        }
    }

    private func signInWithPastedRedirect(_ request: OAuthAuthorizationRequest, client: OAuthClient) async throws(CLIError) -> SessionSummary {
        context.standardError.line("""
        Open this URL in a browser on any machine and sign in:

          \(request.url)

        The browser then goes to \(request.redirectURI), which fails to load there: copy the whole URL from its address
        bar (or only the value of its code parameter) and paste it here.
        """)
        let pasted: String
        if context.isInteractive {
            // It carries the code: no echo, and it never lands in the terminal's scroll-back.
            guard let secret = context.prompter.readSecret(prompt: "Redirect URL: ") else {
                throw CLIError("Nothing was pasted; run 'authvault login --paste' again.", status: .usage)
            }
            pasted = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        } else {
            guard let line = StandardInput.firstLine() else {
                throw CLIError("--paste reads the redirect URL from the terminal or standard input, and neither gave one.", status: .usage)
            }
            pasted = String(decoding: line, as: UTF8.self)
        }
        return try await redeem(try request.authorizationCode(pasted: pasted), of: request, client: client)
    }

    /// Exchanges the code, verifies what comes back, and keeps the session; nothing is stored unless all of it passed.
    private func redeem(
        _ code: @autoclosure () throws(OAuthCallbackError) -> OAuthAuthorizationCode, of request: OAuthAuthorizationRequest,
        client: OAuthClient
    ) async throws(CLIError) -> SessionSummary {
        let authorizationCode: OAuthAuthorizationCode
        do { authorizationCode = try code() } catch { throw CLIError(error.description, status: .failure) }
        let tokens: OAuthTokens
        do {
            tokens = try await client.exchange(authorizationCode, for: request)
        } catch {
            throw Self.exchangeError(error)
        }
        do { return try await session.store.signIn(browserTokens: tokens) } catch { throw CLIErrors.from(error) }
    }

    private func announce(_ request: OAuthAuthorizationRequest, delivery: Delivery) {
        let via = request.identityProvider.map { " with \($0)" } ?? ""
        switch delivery {
        case .openBrowser(let launcher):
            context.standardError.line("Opening the browser to sign in\(via) (profile '\(session.profile.name)'). If it does not open, visit:\n\n  \(request.url)\n")
            let output = context.standardError
            let opened = launcher.open(request.url) { status in
                if status != 0 {
                    output.line("\nThe browser (\(launcher.source)) exited with status \(status): open the URL above yourself.")
                }
            }
            if !opened { context.standardError.line("Cannot start the browser (\(launcher.source)): open the URL above yourself.") }
        case .printURL, .paste:
            let port = OAuthRedirect.port(of: request.redirectURI)
            context.standardError.line("""
            Open this URL in a browser on this machine to sign in\(via) (profile '\(session.profile.name)'):

              \(request.url)

            From another machine, forward the port first: ssh -L \(port):127.0.0.1:\(port) THIS-HOST

            """)
        }
    }

    private static func cliError(_ error: LoopbackError) -> CLIError {
        switch error {
        case .cancelled: CLIError(error.description, status: .cancelled)
        case .authorizationDenied: CLIError(error.description, status: .signInRequired)
        case .invalidRedirectURI, .allPortsBusy: CLIError(error.description, status: .usage)
        case .timedOut, .bindFailed: CLIError(error.description, status: .failure)
        }
    }

    private static func exchangeError(_ error: OAuthError) -> CLIError {
        switch error {
        case .tokenRejected(let reason):
            CLIError("The tokens from the authorization server failed verification (\(reason)); nothing was stored. "
                + "Check the profile's --issuer and --jwks-url, then run 'authvault login' again.", status: .failure)
        case .refused(.invalidGrant, _, _, _):
            CLIError("The authorization server refused the code (it was used already, or it expired): run 'authvault login' again.",
                     status: .signInRequired)
        default:
            CLIErrors.from(error)
        }
    }
}

/// The port of a loopback redirect URI, for the SSH hint.
enum OAuthRedirect {
    static func port(of uri: String) -> String {
        guard let authority = uri.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first,
              let colon = authority.lastIndex(of: ":") else { return "PORT" }
        return String(authority[authority.index(after: colon)...])
    }
}

/// "Waiting for sign-in in the browser... 2:41 left, Ctrl-C to cancel", rewritten each second on a terminal's
/// standard error, and erased when the wait ends. Nothing at all when standard error is not a terminal.
final class Countdown: Sendable {
    /// The ticking task, and whether the line was erased; a tick writes only under the lock and before the erase.
    private let state = Mutex<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))
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
                    self.output.write("\r\u{1B}[KWaiting for sign-in in the browser... \(left / 60):\(seconds) left, Ctrl-C to cancel")
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
