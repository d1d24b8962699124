extension JSONValue {
    /// Nesting deeper than this is refused: the agent's messages are two levels deep, JWT claims and Cognito's
    /// answers three at most.
    public static let maximumDepth = 16

    /// Parses one JSON text (RFC 8259), surrounding whitespace allowed. Nil for anything else: bad syntax,
    /// invalid UTF-8, duplicate keys, nesting beyond `maximumDepth`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        var parser = JSONParser(bytes)
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.atEnd ? value : nil
    }

    /// Inlinable, so that the caller's collection is known where it is called: a generic call in another module
    /// reaches the standard library's unspecialized code, which lies apart from the rest of a warm command's.
    @inlinable
    public static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        if let parsed = bytes.withContiguousStorageIfAvailable({ parse(UnsafeRawBufferPointer($0)) }) { return parsed }
        return Array(bytes).withUnsafeBytes { parse($0) }
    }
}

private struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func consume(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func value(depth: Int) -> JSONValue? {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return consume("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return consume("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return consume("null") ? .null : nil
        default: return number().map(JSONValue.number)
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        guard depth <= JSONValue.maximumDepth else { return nil }
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            guard !members.contains(where: { $0.key == key }) else { return nil }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")), let value = value(depth: depth) else { return nil }
            members.append(JSONMember(key, value))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> JSONValue? {
        guard depth <= JSONValue.maximumDepth else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) ? .array(elements) : nil
    }

    /// At the opening quote. Escapes are decoded; the result must be valid UTF-8 (no lone surrogates).
    private mutating func string() -> String? {
        index += 1
        let start = index
        // The common case, no escape: validate the bytes in place.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        guard let stop = current else { return nil }
        var decoded = Array(bytes[start..<index])
        if stop == UInt8(ascii: "\\") {
            guard decodeEscapedTail(into: &decoded) else { return nil }
        }
        index += 1
        return String(validating: decoded, as: UTF8.self)
    }

    /// From the first backslash to the closing quote (left current).
    private mutating func decodeEscapedTail(into decoded: inout [UInt8]) -> Bool {
        while let byte = current, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20 else { return false }
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                continue
            }
            guard let escape = current else { return false }
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                guard let scalar = unicodeEscape() else { return false }
                decoded.append(contentsOf: String(Character(scalar)).utf8)
            default: return false
            }
        }
        return current != nil
    }

    /// After `\u`: four hex digits, or a surrogate pair written as two escapes.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexQuad() else { return nil }
        switch high {
        case 0xD800..<0xDC00:
            guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = hexQuad(),
                (0xDC00..<0xE000).contains(low)
            else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00..<0xE000:
            return nil
        default:
            return Unicode.Scalar(high)
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// RFC 8259's number grammar, checked here; the value itself is converted by `Double`.
    private mutating func number() -> Double? {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard digits() else { return nil }
        }
        if consume(UInt8(ascii: ".")) {
            guard digits() else { return nil }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// One or more decimal digits.
    private mutating func digits() -> Bool {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index > start
    }
}
