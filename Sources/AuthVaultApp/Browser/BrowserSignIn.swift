import AuthStore
import CognitoAuth
import Loopback

/// A browser sign-in of a profile (the Hosted UI, or any OpenID provider): the authorization-code flow with PKCE,
/// the code received by a loopback listener on a registered redirect URI or pasted by the user, the ID token
/// verified with this sign-in's nonce, and the session handed to the store. Showing the URL, opening a browser and
/// waiting at a terminal are the caller's.
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

    /// The request for the profile's first registered redirect URI, with fresh state, nonce and PKCE verifier.
    public func begin() async throws(BrowserSignInError) -> Attempt {
        do {
            let client = try await session.authority.oauthClient()
            return Attempt(client: client, request: try client.authorizationRequest(identityProvider: identityProvider))
        } catch {
            throw .client(error)
        }
    }

    /// A listener on the first free registered port, and the attempt redirected to it (state, nonce and verifier
    /// stay).
    public func listen(_ attempt: Attempt) throws(BrowserSignInError) -> (LoopbackListener, Attempt) {
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(redirectURIs: session.profile.redirectURIs, state: attempt.request.state, timeout: timeout)
        } catch {
            throw .listener(error)
        }
        return (listener, Attempt(client: attempt.client, request: attempt.request.redirected(to: listener.redirectURI)))
    }

    /// Redeems the redirect the listener received, and tells the browser tab how it went.
    public func redeem(_ received: AuthorizationCallback, of attempt: Attempt) async throws(BrowserSignInError) -> SessionSummary {
        do {
            let summary = try await redeem(try attempt.request.authorizationCode(fromCallback: received.url), of: attempt)
            received.respond(with: .success("Signed in as \(summary.user) — you can close this tab."))
            return summary
        } catch {
            received.respond(with: .failure("The sign-in could not be completed. Return to the terminal for details; you can close this tab."))
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
        do { tokens = try await attempt.client.exchange(authorizationCode, for: attempt.request) } catch { throw .exchange(error) }
        do { return try await session.store.signIn(browserTokens: tokens) } catch { throw .store(error) }
    }
}

/// Why a browser sign-in failed, by step; nothing was stored.
public enum BrowserSignInError: Error, Sendable, CustomStringConvertible {
    /// The profile cannot sign in through a browser (no Hosted UI or endpoints, no redirect URI).
    case client(OAuthError)
    case listener(LoopbackError)
    /// The redirect did not carry a code for this sign-in.
    case callback(OAuthCallbackError)
    /// The authorization server refused the code, or its tokens failed verification.
    case exchange(OAuthError)
    case store(AuthStoreError)

    public var description: String {
        switch self {
        case .client(let error), .exchange(let error): "\(error)"
        case .listener(let error): "\(error)"
        case .callback(let error): "\(error)"
        case .store(let error): "\(error)"
        }
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
