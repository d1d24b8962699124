internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Receives the OAuth authorization-code redirect from the browser on the loopback interface (RFC 8252).
///
/// It binds the first registered redirect URI whose port is free, on the loopback address of its host only, and
/// serves on a dedicated thread until the redirect of this sign-in arrives (`GET` on the registered path with the
/// expected `state`), the authorization server reports an error there, the time-out passes, or `cancel()`.
/// Every other request gets 404 or 400 and the wait goes on; one whose `Host` is not the registered URI's
/// `host:port` (as the browser sends it) gets 403, or 400 without `Host`.
///
/// ```swift
/// let listener = try LoopbackListener(redirectURIs: profile.redirectURIs, state: state)
/// openBrowser(authorizeURL(redirectURI: listener.redirectURI))
/// let callback = try await listener.waitForCallback()
/// let tokens = try await exchange(callback.code, redirectURI: listener.redirectURI)
/// callback.respond(with: .success("Signed in as \(tokens.user) — you can close this tab."))
/// ```
public final class LoopbackListener: Sendable {
    public struct Limits: Sendable {
        /// How long one connection may take to send its request head, counted from its accept.
        public var readDeadline: Duration
        /// The largest request head accepted; beyond it the request gets 431.
        public var maximumHeaderBytes: Int
        /// Connections served at once; beyond it the oldest is dropped for the newcomer.
        public var maximumConnections: Int
        /// How long the browser's connection is held for the caller's page before the default page is sent.
        public var answerTimeout: Duration

        public init(
            readDeadline: Duration = .seconds(5), maximumHeaderBytes: Int = 16 * 1024,
            maximumConnections: Int = 32, answerTimeout: Duration = .seconds(60)
        ) {
            self.readDeadline = readDeadline
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumConnections = maximumConnections
            self.answerTimeout = answerTimeout
        }
    }

    /// The registered redirect URI being served, exactly as registered: send it as `redirect_uri`.
    public let redirectURI: String
    /// The addresses the listening sockets are bound to, e.g. `127.0.0.1:8400` or `[::1]:8402`.
    public let listeningAddresses: [String]
    private let core: ListenerCore

    /// Binds and starts serving at once; the time-out counts from here.
    /// - Parameters:
    ///   - redirectURIs: the profile's registered redirect URIs, tried in order.
    ///   - state: the `state` sent in the authorization request; compared in constant time.
    public init(
        redirectURIs: [String], state: String, timeout: Duration = .seconds(180),
        limits: Limits = Limits()
    ) throws(LoopbackError) {
        precondition(!state.isEmpty, "the expected state must not be empty")
        let bound = try BoundRedirect.first(of: RegisteredRedirectURI.parseAll(redirectURIs))
        guard let wakeup = Wakeup() else {
            let reason = "cannot create a wake-up socket pair: \(SystemCallError.text(errno))"
            bound.descriptors.forEach { _ = close($0) }
            throw .bindFailed(reason, listener: .signInRedirect)
        }
        redirectURI = bound.uri.string
        listeningAddresses = bound.descriptors.compactMap { SocketAddress.local(of: $0)?.description }
        core = ListenerCore(listeners: bound.descriptors, wakeup: wakeup)
        let router = CallbackRouter(
            core: core, matcher: CallbackMatcher(path: bound.uri.path, expectedState: state),
            origin: bound.uri.origin, answerTimeout: limits.answerTimeout)
        let server = ConnectionServer(
            core: core, router: router, expectedHost: bound.uri.expectedHost, limits: limits, deadline: .now + timeout)
        let status = DetachedThread.start { server.run() }
        guard status == 0 else {
            core.finish(.failure(.cancelled))
            core.closeListeners()
            throw .bindFailed(
                "cannot start the listener thread: \(SystemCallError.text(status))", listener: .signInRedirect)
        }
    }

    deinit {
        cancel()
    }

    /// Waits, without holding a thread, for the redirect of this sign-in. When it returns or throws, the listening
    /// sockets are closed and the port is free. Cancelling the waiting task cancels the listener. A callback that
    /// arrives before anyone waits is kept for the first caller.
    public func waitForCallback() async throws(LoopbackError) -> AuthorizationCallback {
        let core = self.core
        let outcome = await withTaskCancellationHandler {
            await core.wait()
        } onCancel: {
            core.finish(.failure(.cancelled))
        }
        return try outcome.get()
    }

    /// Ends the wait with `LoopbackError.cancelled`. Safe from any thread (the relay of a Ctrl-C handler), and
    /// never blocks: when it returns the listening sockets accept nothing more and a new listener can bind the
    /// port; the serving thread closes them a moment later, before `waitForCallback()` throws. Does nothing once
    /// the wait has ended, and leaves an already returned callback's connection to its owner.
    public func cancel() {
        core.finish(.failure(.cancelled))
    }
}
