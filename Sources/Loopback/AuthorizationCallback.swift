/// The redirect of this sign-in, carrying the authorization code, with the browser's connection held open for the
/// page the caller sends once the code is exchanged.
///
/// If the caller never answers, the browser gets a neutral default page when this value is released, or after
/// `LoopbackListener.Limits.answerTimeout`.
public final class AuthorizationCallback: Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The authorization code: a secret, never shown by `description`.
    public let code: String
    /// The full callback URL the browser requested, query included: it carries the code, so never log it.
    public let url: String
    /// The callback URL without its query, for logging.
    public let urlWithoutQuery: String
    private let connection: HeldConnection
    private let wakeup: Wakeup

    init(code: String, url: String, urlWithoutQuery: String, connection: HeldConnection, wakeup: Wakeup) {
        self.code = code
        self.url = url
        self.urlWithoutQuery = urlWithoutQuery
        self.connection = connection
        self.wakeup = wakeup
    }

    deinit {
        respond(with: .unanswered)
    }

    /// Sends the final page to the browser and closes its connection. Only the first answer is sent; returns
    /// whether this one was. Never blocks: the page goes out with one non-blocking write.
    @discardableResult
    public func respond(with page: CallbackPage) -> Bool {
        defer { wakeup.signal() }
        return connection.answer(page)
    }

    public var description: String { "AuthorizationCallback(\(urlWithoutQuery), code and query redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["url": urlWithoutQuery], displayStyle: .class) }
}
