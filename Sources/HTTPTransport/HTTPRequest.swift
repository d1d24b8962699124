/// A request for `HTTPTransport`. Printing it shows the method and the URL without query or user information;
/// header values and the body (passwords, tokens, secret hashes) never appear.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// `GET`, `POST`, ...
    public var method: String
    /// An `http://` or `https://` URL.
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// What the body carries that must never come back in an error (a password, a code, a refresh token, a device
    /// code): the request's `redactor` finds each in any form. Never shown.
    public var secrets: [String]
    /// The overall deadline for this request, connection included; nil uses the transport's default.
    public var timeout: Duration?
    /// What the request does, for `--debug`: the Cognito action (`InitiateAuth`), the OAuth endpoint's purpose
    /// ("the refresh-token grant"). Set by the client that knows it; never a secret.
    public var operation: String?

    public init(
        method: String = "GET", url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], secrets: [String] = [],
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.secrets = secrets
        self.timeout = timeout
    }

    public var description: String { "\(method) \(RedactedURL(url))" }
    public var customMirror: Mirror {
        Mirror(self, children: ["method": method, "url": RedactedURL(url).description], displayStyle: .struct)
    }
}
