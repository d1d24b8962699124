/// The `name=value` pairs of a query string, decoded as `application/x-www-form-urlencoded` (`+` is a space).
struct QueryParameters {
    private let pairs: [(name: String, value: String)]

    /// Nil when a pair has broken percent-encoding or does not decode to UTF-8.
    init?(_ query: Substring) {
        var pairs: [(String, String)] = []
        for field in query.split(separator: "&") {
            let name = field.prefix { $0 != "=" }
            let value = field.dropFirst(name.count + 1)
            guard let decodedName = Self.decode(name), let decodedValue = Self.decode(value) else { return nil }
            pairs.append((decodedName, decodedValue))
        }
        self.pairs = pairs
    }

    func values(named name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    private static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
