/// A request for `HTTPTransport`. Printing it shows the method and the URL without query or user information;
/// header values and the body (passwords, tokens, secret hashes) never appear.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// `GET`, `POST`, ...
    public var method: String
    /// An `http://` or `https://` URL.
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// The overall deadline for this request, connection included; nil uses the transport's default.
    public var timeout: Duration?

    public init(method: String = "GET", url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Duration? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    public var description: String { "\(method) \(RedactedURL(url))" }
    public var customMirror: Mirror {
        Mirror(self, children: ["method": method, "url": RedactedURL(url).description], displayStyle: .struct)
    }
}
