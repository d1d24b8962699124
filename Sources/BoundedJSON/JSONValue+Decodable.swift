/// For the answers of Cognito and the OAuth server that are read with JSONDecoder into typed payloads, where a field's
/// type varies (challenge parameters, `expires_in`). The nesting bound holds here too.
extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count < Self.maximumDepth else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "nested too deeply"))
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([JSONValue].self) {
            self = .array(value)
        } else {
            let container = try decoder.container(keyedBy: MemberKey.self)
            self = .object(
                try container.allKeys.map {
                    JSONMember($0.stringValue, try container.decode(JSONValue.self, forKey: $0))
                })
        }
    }
}

/// Any member name.
private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
