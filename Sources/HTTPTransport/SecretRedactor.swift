import FoundationEssentials
import NetworkHosts

/// The one redactor of text a server sent back (an error's message or description): every secret a request
/// carried is blanked out in each form a server may echo it in. Built from the request (`HTTPRequest.redactor`),
/// which knows its secret form fields and credential headers.
///
/// Why it is complete for percent-encoding: rather than listing encodings, the matcher reads the text as an
/// encoder may have written it. Each byte of a secret matches the text's raw byte, or `%XX` with that value in
/// either case of hex, or (a space) `+`; so every mix of escaped and unescaped bytes, whatever the encoder chose
/// to escape, matches, and nothing else does. For base64, a secret's value is not found by decoding (the text is
/// not known to be base64), so the forms are listed: the whole secret in standard base64 (with and without
/// padding) and base64url, and the part of it that base64 writes the same whatever surrounds it, for each of the
/// three alignments the secret may have inside longer encoded data. The Basic credential is encoded as a whole
/// (`HTTPRequest.credentials`), with the secret inside raw or percent-encoded. Each form is matched as above, so
/// a percent-encoded base64 is found too. Overlapping matches are blanked out as one span.
public struct SecretRedactor: Sendable {
    /// The byte forms looked for; each is matched byte by byte, percent-escapes and `+` allowed.
    private let forms: [[UInt8]]

    public static let placeholder = "<redacted>"

    public init(_ secrets: [String]) {
        var forms = Set<[UInt8]>()
        for secret in secrets where !secret.isEmpty {
            let bytes = Array(secret.utf8)
            forms.insert(bytes)
            forms.formUnion(Self.base64Forms(of: bytes))
        }
        self.forms = forms.sorted { $0.count > $1.count }
    }

    /// `text` with every span that matches a form of a secret replaced by `placeholder`.
    public func redact(_ text: String) -> String {
        guard !forms.isEmpty else { return text }
        let bytes = Array(text.utf8)
        // The furthest match from each position, overlapping spans merged into one.
        var spans: [Range<Int>] = []
        for start in bytes.indices {
            guard let end = forms.compactMap({ Self.match($0, in: bytes, at: start) }).max() else { continue }
            if let last = spans.last, start <= last.upperBound {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                spans.append(start..<end)
            }
        }
        guard !spans.isEmpty else { return text }
        var output: [UInt8] = []
        var position = 0
        for span in spans {
            output.append(contentsOf: bytes[position..<span.lowerBound])
            output.append(contentsOf: Self.placeholder.utf8)
            position = span.upperBound
        }
        output.append(contentsOf: bytes[position...])
        return String(decoding: output, as: UTF8.self)
    }

    /// Where a match of `form` that starts at `start` can end (the furthest), or nil. Several ends are possible
    /// (a `%` in the secret matches `%` or `%25`), so every one is followed.
    private static func match(_ form: [UInt8], in text: [UInt8], at start: Int) -> Int? {
        var ends = [start]
        for byte in form {
            var next: [Int] = []
            for position in ends where position < text.count {
                let character = text[position]
                if character == byte || (byte == UInt8(ascii: " ") && character == UInt8(ascii: "+")) {
                    next.append(position + 1)
                }
                if character == UInt8(ascii: "%"), position + 2 < text.count,
                    let high = FormURLEncoding.hexValue(text[position + 1]),
                    let low = FormURLEncoding.hexValue(text[position + 2]),
                    high << 4 | low == byte
                {
                    next.append(position + 3)
                }
            }
            guard !next.isEmpty else { return nil }
            ends = Array(Set(next))
        }
        return ends.max()
    }

    /// Base64 and base64url of the whole secret, and of its middle for each alignment inside longer data: the
    /// groups of three bytes that lie wholly within the secret encode to the same four characters wherever the
    /// data starts. Forms shorter than eight characters are left out (they would blank out ordinary words).
    static func base64Forms(of bytes: [UInt8]) -> [[UInt8]] {
        let whole = Data(bytes).base64EncodedString()
        var texts = [whole, String(whole.prefix { $0 != "=" })]
        for offset in 0..<3 where bytes.count - offset >= 6 {
            let middle = bytes[offset..<(offset + (bytes.count - offset) / 3 * 3)]
            texts.append(Data(middle).base64EncodedString())
        }
        let urlSafe = texts.map { text in
            String(
                text.compactMap { character -> Character? in
                    switch character {
                    case "+": "-"
                    case "/": "_"
                    case "=": nil
                    default: character
                    }
                })
        }
        return Set(texts + urlSafe).filter { $0.count >= 8 }.map { Array($0.utf8) }
    }
}
