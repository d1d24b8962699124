/// The final response to a request (redirects are not followed, so a 3xx is a response like any other).
/// Printing it shows the status and the body's size only: bodies carry tokens.
public struct HTTPResponse: Sendable, CustomStringConvertible, CustomReflectable {
    public var status: Int
    /// The headers of the last response, in the order received.
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.firstValue(named: name)
    }

    public var description: String { "HTTP \(status) (\(body.count)-byte body)" }
    public var customMirror: Mirror {
        Mirror(self, children: ["status": status, "bodyCount": body.count], displayStyle: .struct)
    }
}
