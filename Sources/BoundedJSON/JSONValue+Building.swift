import AuthCrypto

/// Building a value to send (a request body): literals for the plain scalars, an object from a dictionary, and
/// the secrets inside, so a sender knows which strings must never come back in an error message.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// An object of `members`, written in key order so that the same body is always the same bytes.
    public static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })
    }

    /// Every `.secret` inside, depth first.
    public var secrets: [SecretBytes] {
        switch self {
        case .null, .bool, .number, .string: []
        case .secret(let value): [value]
        case .array(let elements): elements.flatMap(\.secrets)
        case .object(let members): members.flatMap(\.value.secrets)
        }
    }

    /// Compact JSON, as `write(into:)` writes it.
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }
}
