import BoundedJSON

/// An object's members edited in place, so that the others keep their order (a file a person reads stays theirs).
extension [JSONMember] {
    /// `key`'s value replaced where it is, else added at the end.
    mutating func set(_ key: String, to value: JSONValue) {
        if let position = firstIndex(where: { $0.key == key }) {
            self[position] = JSONMember(key, value)
        } else {
            append(JSONMember(key, value))
        }
    }
}

extension JSONValue {
    /// An object's members; none for anything else.
    var members: [JSONMember] {
        if case .object(let members) = self { return members }
        return []
    }
}
