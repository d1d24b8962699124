/// An object's members read as the `Codable` conformance of the same type reads them with JSONDecoder, for the files
/// read on every warm `authvault token` (the configuration, the vault record): Codable costs a run-time conformance
/// look-up per type there (about 0.2 M instructions each) and JSONDecoder 2 M more. A member missing or null is nil;
/// any other difference from what the conformance takes (a wrong type, a number JSONDecoder reads from its text)
/// throws `JSONFields.Refused`, and the caller then decodes with JSONDecoder, which says what is wrong. Each type
/// read this way has a test that its reading and its conformance agree, field for field.
public struct JSONFields {
    /// Not read the way the conformance reads it: the caller decodes with JSONDecoder instead.
    public struct Refused: Error {
        @usableFromInline init() {}
    }

    private let members: [JSONMember]

    public init(_ value: JSONValue) throws(Refused) {
        guard case .object(let members) = value else { throw Refused() }
        self.members = members
    }

    /// The member's value; nil when it is missing or null, as `decodeIfPresent` takes both.
    public func value(_ key: String) -> JSONValue? {
        guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
        return value
    }

    /// A member `Codable` requires (a non-optional property): missing or null is refused.
    public static func required<T>(_ value: T?) throws(Refused) -> T {
        guard let value else { throw Refused() }
        return value
    }

    public func string(_ key: String) throws(Refused) -> String? {
        try value(key).map { value throws(Refused) in try value.text() }
    }

    public func strings(_ key: String) throws(Refused) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw Refused() }
        return try elements.map { element throws(Refused) in try element.text() }
    }

    public func bool(_ key: String) throws(Refused) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw Refused() }
        return flag
    }

    public func double(_ key: String) throws(Refused) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value else { throw Refused() }
        return number
    }

    /// Integers only while a Double holds them exactly; JSONDecoder reads larger ones from the text.
    public func int(_ key: String) throws(Refused) -> Int? {
        guard let number = try double(key) else { return nil }
        guard number.magnitude < 0x1p53, number.rounded(.towardZero) == number else { throw Refused() }
        return Int(number)
    }

    public func uint64(_ key: String) throws(Refused) -> UInt64? {
        guard let number = try int(key) else { return nil }
        guard number >= 0 else { throw Refused() }
        return UInt64(number)
    }

    /// A string-valued enum, by its raw value.
    public func choice<T: RawRepresentable<String>>(_ key: String, as type: T.Type = T.self) throws(Refused) -> T? {
        guard let text = try string(key) else { return nil }
        guard let choice = T(rawValue: text) else { throw Refused() }
        return choice
    }

    /// A nested object, read by `read`.
    public func object<T>(_ key: String, _ read: (JSONFields) throws(Refused) -> T) throws(Refused) -> T? {
        guard let value = value(key) else { return nil }
        return try read(JSONFields(value))
    }

    /// A list of objects, each read by `read`.
    public func objects<T>(_ key: String, _ read: (JSONFields) throws(Refused) -> T) throws(Refused) -> [T]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw Refused() }
        return try elements.map { element throws(Refused) in try read(JSONFields(element)) }
    }

    /// An object of objects by name (a `[String: T]` property), each read by `read`. Inlinable for the reason
    /// `JSONValue.parse(_:)` is: the dictionary's code is then the caller's, specialized.
    @inlinable
    public func objectsByName<T>(_ key: String, _ read: (JSONFields) throws(Refused) -> T) throws(Refused)
        -> [String: T]?
    {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else { throw Refused() }
        var result: [String: T] = [:]
        for member in members { result[member.key] = try read(JSONFields(member.value)) }
        return result
    }
}

extension JSONValue {
    fileprivate func text() throws(JSONFields.Refused) -> String {
        guard case .string(let text) = self else { throw JSONFields.Refused() }
        return text
    }
}
