/// A complete HTTP/1.x request head as the listeners judge it: the request line, and the two header fields they read,
/// `Host` (the name the client meant, checked against DNS rebinding) and `Authorization` (the credentials endpoint's
/// per-run token). Every other field is only checked for shape.
package struct RequestHead: Equatable {
    package let line: RequestLine
    /// The `Host` field's value without surrounding blanks; nil when the request has none.
    package let host: String?
    /// The `Authorization` field's value without surrounding blanks; nil when the request has none.
    package let authorization: String?

    /// The most header fields a head may have; the head's size is already bounded by the connection's limit.
    package static let maximumFields = 100

    /// Parses a complete head (request line, fields, blank line); nil when any part is malformed, a field repeats
    /// `Host` or `Authorization` (ambiguous: RFC 9112 answers a repeated Host with 400), or there are more than
    /// `maximumFields` fields. Each value is bounded by the head's size, which the connection limits.
    package init?(head: ArraySlice<UInt8>) {
        guard let line = RequestLine(head: head) else { return nil }
        var fields = Self.lines(of: head).dropFirst()
        // The blank line that ends the head, and nothing after it.
        while fields.last?.isEmpty == true { fields.removeLast() }
        guard fields.count <= Self.maximumFields else { return nil }
        var host: String?
        var authorization: String?
        for field in fields {
            guard let colon = field.firstIndex(of: UInt8(ascii: ":")), colon > field.startIndex,
                field[..<colon].allSatisfy(Self.isTokenCharacter),
                field[(colon + 1)...].allSatisfy({ $0 == 0x09 || (0x20..<0x7F).contains($0) })
            else { return nil }
            let value = field[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = String(decoding: value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed(), as: UTF8.self)
            switch String(decoding: field[..<colon], as: UTF8.self).lowercased() {
            case "host":
                guard host == nil else { return nil }
                host = trimmed
            case "authorization":
                guard authorization == nil else { return nil }
                authorization = trimmed
            default: continue
            }
        }
        self.line = line
        self.host = host
        self.authorization = authorization
    }

    /// The head's lines, split at CRLF (a bare LF is taken as a line end too, as most servers do).
    private static func lines(of head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
    }

    /// RFC 9110's `tchar`: what a field name is made of.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
