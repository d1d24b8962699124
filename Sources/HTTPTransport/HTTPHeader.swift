/// One header field. The value may be a secret (`Authorization`, `Set-Cookie`), so printing a header shows
/// only its name.
public struct HTTPHeader: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name): <redacted>" }
    public var customMirror: Mirror { Mirror(self, children: ["name": name], displayStyle: .struct) }
}

extension [HTTPHeader] {
    /// The value of the first header called `name`, compared case-insensitively (RFC 9110 section 5.1).
    func firstValue(named name: String) -> String? {
        first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
