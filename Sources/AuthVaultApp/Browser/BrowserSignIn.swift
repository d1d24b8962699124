import AuthStore
import CognitoAuth
import Loopback
import SystemPlumbing

/// A browser sign-in of a profile (the Hosted UI, or any OpenID provider): the authorization-code flow with PKCE,
/// the code received by a loopback listener on a registered redirect URI or pasted by the user, the ID token
/// verified with this sign-in's nonce, and the session handed to the store. The application owns the listener; the
/// caller's `BrowserSignInPresenter` shows the URL (and opens a browser) and the countdown, and its
/// `BrowserSignInCancel` carries a cancel (a Ctrl-C) to the wait.
public struct BrowserSignIn: Sendable {
    public let session: ProfileSession
    /// Cognito's `identity_provider`; nil shows the Hosted UI's own page. Always nil for another OpenID provider,
    /// which has no such parameter.
    public let identityProvider: String?
    public let timeout: Duration

    public init(session: ProfileSession, identityProvider: String?, timeout: Duration) {
        self.session = session
        self.identityProvider = session.profile.userPoolId == nil ? nil : identityProvider
        self.timeout = timeout
    }

    /// A sign-in begun: its client and the request the browser is sent with.
    public struct Attempt: Sendable {
        public let client: OAuthClient
        public let request: OAuthAuthorizationRequest
    }

    /// The request for the profile's first registered redirect URI, with fresh state, nonce and PKCE verifier; a vault
    /// that does not answer is said before the browser is sent anywhere.
    public func begin() async throws(BrowserSignInError) -> Attempt {
        do { try await session.vaultAnswersForSignIn() } catch { throw .failed(error) }
        do {
            let client = try await session.authority.oauthClient()
            return Attempt(client: client, request: try client.authorizationRequest(identityProvider: identityProvider))
        } catch {
            throw .failed(ApplicationError(error, need: session.signInNeed))
        }
    }

    /// The sign-in through the loopback listener: a listener on the first free registered port, the request
    /// redirected to it (state, nonce and verifier stay) and shown by `presenter`, the wait for the browser's redirect
    /// (ended by `cancel`, or at `timeout`), and the code redeemed.
    public func signInThroughListener(
        presenter: some BrowserSignInPresenter, cancel: BrowserSignInCancel
    ) async throws(BrowserSignInError) -> SessionSummary {
        let begun = try await begin()
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(
                redirectURIs: session.profile.redirectURIs, state: begun.request.state, timeout: timeout)
        } catch {
            throw .failed(ApplicationError(error, need: session.signInNeed))
        }
        cancel.attach(listener)
        let attempt = Attempt(client: begun.client, request: begun.request.redirected(to: listener.redirectURI))
        presenter.listening(attempt.request, timeout: timeout)
        let received: AuthorizationCallback
        do {
            defer { presenter.waitEnded() }
            received = try await listener.waitForCallback()
        } catch {
            throw .failed(ApplicationError(error, need: session.signInNeed))
        }
        return try await redeem(received, of: attempt)
    }

    /// Redeems the redirect the listener received, and tells the browser tab how it went.
    func redeem(_ received: AuthorizationCallback, of attempt: Attempt) async throws(BrowserSignInError)
        -> SessionSummary
    {
        do {
            let summary = try await redeem(
                try attempt.request.authorizationCode(fromCallback: received.url), of: attempt)
            received.respond(with: .success("Signed in as \(summary.user) — you can close this tab."))
            return summary
        } catch {
            received.respond(
                with: .failure(
                    "The sign-in could not be completed. Return to the terminal for details; you can close this tab."))
            throw error
        }
    }

    /// Redeems a redirect URL (or only its code) the user pasted from a browser elsewhere.
    public func redeem(pasted: String, of attempt: Attempt) async throws(BrowserSignInError) -> SessionSummary {
        try await redeem(try attempt.request.authorizationCode(pasted: pasted), of: attempt)
    }

    /// Exchanges the code, verifies what comes back, and keeps the session; nothing is stored unless all of it passed.
    private func redeem(
        _ code: @autoclosure () throws(OAuthCallbackError) -> OAuthAuthorizationCode, of attempt: Attempt
    ) async throws(BrowserSignInError) -> SessionSummary {
        let authorizationCode: OAuthAuthorizationCode
        do { authorizationCode = try code() } catch { throw .callback(error) }
        let tokens: OAuthTokens
        do { tokens = try await attempt.client.exchange(authorizationCode, for: attempt.request) } catch {
            throw .exchange(error, need: session.signInNeed)
        }
        do { return try await session.store.signIn(browserTokens: tokens) } catch {
            throw .failed(ApplicationError(error, need: session.signInNeed))
        }
    }
}

/// Why a browser sign-in failed, by step; nothing was stored.
public enum BrowserSignInError: Error, Sendable, CustomStringConvertible {
    /// The client, the listener or the store failed: the profile cannot sign in through a browser (no Hosted UI or
    /// endpoints, no redirect URI), no port was free, the user cancelled, the session was refused.
    case failed(ApplicationError)
    /// The redirect did not carry a code for this sign-in.
    case callback(OAuthCallbackError)
    /// The authorization server refused the code: it was used already, or it expired.
    case codeRefused(Cause)
    /// The tokens the code was exchanged for failed verification (most often another issuer or key set).
    case tokensRejected(Cause)

    /// The exchange of the code, in these terms.
    static func exchange(_ error: OAuthError, need: SignInNeed) -> Self {
        switch error {
        case .tokenRejected(let reason): .tokensRejected(Cause(reason))
        case .refused(.invalidGrant, _, _, _): .codeRefused(Cause(error))
        default: .failed(ApplicationError(error, need: need))
        }
    }

    public var description: String {
        switch self {
        case .failed(let error): "\(error)"
        case .callback(let error): "\(error)"
        case .codeRefused(let cause): "\(cause)"
        case .tokensRejected(let cause): "The tokens failed verification: \(cause)"
        }
    }
}

/// The caller's side of a browser sign-in through the listener: what a person sees while it waits.
public protocol BrowserSignInPresenter: Sendable {
    /// The listener is up: show `request.url` (open a browser with it), and count down from `timeout`.
    func listening(_ request: OAuthAuthorizationRequest, timeout: Duration)
    /// The wait is over, whichever way it ended: stop the countdown, and stop taking a cancel.
    func waitEnded()
}

/// A cancel's way to the listener (a Ctrl-C, say), which may come before the listener exists: then the listener is
/// cancelled as soon as it does.
public final class BrowserSignInCancel: Sendable {
    private let state = Locked<(fired: Bool, listener: LoopbackListener?)>((false, nil))

    public init() {}

    public func fire() {
        let listener = state.withLock { state in
            state.fired = true
            return state.listener
        }
        listener?.cancel()
    }

    func attach(_ listener: LoopbackListener) {
        let fired = state.withLock { state in
            state.listener = listener
            return state.fired
        }
        if fired { listener.cancel() }
    }
}

/// Opens a URL in the user's browser; the command line passes its own (`--browser-command`, `$BROWSER`, xdg-open).
public protocol BrowserLauncher: Sendable {
    /// Where the command came from, for messages.
    var source: String { get }
    /// Starts the browser without waiting for it; `exited` gets its exit status when it ends. False when it
    /// cannot be started.
    func open(_ url: String, exited: @escaping @Sendable (Int32) -> Void) -> Bool
}
