/// Query strings and `application/x-www-form-urlencoded` bodies, as OAuth 2.0 uses them (RFC 6749 appendix B): the
/// one encoder and decoder, for the requests the client sends and the callbacks the loopback listener reads.
///
/// Encoding escapes everything but RFC 3986's unreserved characters, so a value survives every decoder: a `+` in
/// a value is sent as %2B (a form decoder reads a bare `+` as a space) and a space as %20. Decoding accepts `+`
/// for a space, as form encoders send it.
public enum FormURLEncoding {
    /// `name=value&...`, in the given order.
    public static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\(percentEncoded($0.name))=\(percentEncoded($0.value))" }.joined(separator: "&")
    }

    public static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        encoded.unicodeScalars.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                encoded.unicodeScalars.append(hexDigits[Int(byte & 0x0f)])
            }
        }
        return encoded
    }

    /// The pairs of a query string (without its `?`), in order. Nil when a `%` escape is broken or a name or value
    /// is not UTF-8.
    public static func decode(_ query: some StringProtocol) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for field in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(parts[0]), let value = percentDecoded(parts.count > 1 ? parts[1] : "")
            else {
                return nil
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `text` with its `%XX` escapes decoded, and a `+` as a space unless `plusIsSpace` is false (a URL's path, as
    /// git decodes it). Nil when an escape is broken or the bytes are not UTF-8.
    public static func percentDecoded(_ text: some StringProtocol, plusIsSpace: Bool = true) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// The value of a hex digit of a `%XX` escape, either case.
    public static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
