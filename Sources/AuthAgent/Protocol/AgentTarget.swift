import BoundedJSON

/// Where a client's tool is about to send the token, so that the agent applies the profiles' helper hosts itself
/// (a remote shell has no configuration to read them from):
/// `{"scheme":"https","host":"git.example.com","port":443,"path":"acme/tools.git","username":"alice"}`, `port`,
/// `path` and `username` optional. Only its shape is checked here; whether a profile lists it is the host's rule.
public struct AgentTarget: Sendable, Equatable {
    /// Lowercased: `https`, or whatever the tool said (which then gets no token).
    public let scheme: String
    /// A name or an address, without a port (`[::1]` for an IPv6 literal).
    public let host: String
    public let port: Int?
    /// git's `path=` (without the leading slash), when git sends one.
    public let path: String?
    /// The user in the tool's URL (git's `username=`), when it names one.
    public let username: String?

    /// Bounds on the fields, far beyond any real host, path or user name: a line is answered, never grown.
    static let maximumHostLength = 255
    static let maximumPathLength = 4096
    static let maximumUsernameLength = 256

    /// Nil for a target the agent would refuse to read: an empty or oversized field, a control character, a port
    /// that is not 1 to 65535, a host with a slash, a space or a user part.
    public init?(scheme: String, host: String, port: Int? = nil, path: String? = nil, username: String? = nil) {
        let scheme = scheme.lowercased()
        guard (1...32).contains(scheme.utf8.count), scheme.utf8.allSatisfy(Self.isSchemeByte),
            (1...Self.maximumHostLength).contains(host.utf8.count),
            host.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") }),
            port.map({ (1...65535).contains($0) }) ?? true,
            path.map({ Self.isText($0, upTo: Self.maximumPathLength) }) ?? true,
            username.map({ !$0.isEmpty && Self.isText($0, upTo: Self.maximumUsernameLength) }) ?? true
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.username = username
    }

    /// The `target` member of a request.
    static func parse(_ value: JSONValue) throws(AgentFailure) -> AgentTarget {
        guard case .object = value, let scheme = value["scheme"]?.string, let host = value["host"]?.string else {
            throw .badRequest("A \"target\" is an object with a \"scheme\" and a \"host\"")
        }
        var port: Int?
        if let given = value["port"], given != .null {
            guard let number = given.number, let whole = Int(exactly: number) else {
                throw .badRequest("The target's \"port\" must be a whole number")
            }
            port = whole
        }
        let path = try optionalString("path", of: value)
        let username = try optionalString("username", of: value)
        guard let target = AgentTarget(scheme: scheme, host: host, port: port, path: path, username: username) else {
            throw .badRequest(
                "The target is not one a tool could name (its scheme, host, port 1 to 65535, path or user name)")
        }
        return target
    }

    /// A member that is a string when present; nil when absent or null.
    private static func optionalString(_ key: String, of value: JSONValue) throws(AgentFailure) -> String? {
        switch value[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .badRequest("The target's \"\(key)\" must be a string")
        }
    }

    var json: JSONValue {
        .object(
            ("scheme", .string(scheme)), ("host", .string(host)), ("port", port.map { .number(Double($0)) }),
            ("path", path.map(JSONValue.string)), ("username", username.map(JSONValue.string)))
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isText(_ text: String, upTo limit: Int) -> Bool {
        text.utf8.count <= limit && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
