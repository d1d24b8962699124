import AuthCrypto
import FoundationEssentials

/// A value in a Cognito request body. Secrets (passwords, codes, tokens, sessions, hashes) are marked as such,
/// so the client knows exactly which strings must never come back in an error message.
enum RequestValue: Sendable, Encodable {
    case string(String)
    case secret(SecretBytes)
    case bool(Bool)
    case number(Int)
    case object([String: RequestValue])
    case array([RequestValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .secret(let value): try container.encode(value.utf8String)
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        }
    }

    /// Every secret inside, as the text that goes on the wire.
    var secrets: [String] {
        switch self {
        case .string, .bool, .number: []
        case .secret(let value): [value.utf8String]
        case .object(let value): value.values.flatMap(\.secrets)
        case .array(let value): value.flatMap(\.secrets)
        }
    }
}

extension SecretBytes {
    /// The secret as text, for the request body it has to go into.
    var utf8String: String {
        withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
