import AuthCrypto

/// The one JSON value of the project: the agent's protocol, JWT claims, Cognito's and the OAuth server's answers,
/// the CLI's token-helper output. Parsed and written here rather than with JSONDecoder: the agent's client runs on
/// every `authvault token`, and JSONDecoder's first decode costs about half a millisecond of start-up (measured
/// here); a parser of our own also bounds what a hostile input can make us do (nesting, duplicate keys).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order they were written; keys are unique (the parser rejects duplicates).
    case object([JSONMember])
    /// A token on its way out: written as a JSON string, never produced by the parser, never shown in `text`.
    case secret(SecretBytes)

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// An object's members by key, for claim sets whose shape the issuer decides.
    public var dictionary: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

public struct JSONMember: Sendable, Equatable {
    public let key: String
    public let value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// An object of the members whose values are present, so optional fields are simply left out.
    public static func object(_ members: (String, JSONValue?)...) -> JSONValue {
        .object(members.compactMap { key, value in value.map { JSONMember(key, $0) } })
    }
}
