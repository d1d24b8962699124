/// Text another party chose (a server's error message or description, a challenge's parameters, a token's claims,
/// a discovery document's fields) made safe to show on a terminal: every control character, and every Unicode
/// control that reorders text or breaks a line, is written out as visible text (`\u{1B}`, `\n`), so the text can
/// neither send escape sequences (retitle the window, clear the screen, move the cursor) nor start a line that
/// looks like the program's own. Backslashes are kept as they are, so escaping twice changes nothing.
public enum ServerText {
    /// `text` escaped, and cut at `limit` characters (an ellipsis says so).
    public static func escaped(_ text: String, limit: Int = 300) -> String {
        var kept = ""
        for scalar in text.unicodeScalars {
            if mustBeEscaped(scalar) {
                kept += written(scalar)
            } else {
                kept.unicodeScalars.append(scalar)
            }
        }
        return kept.count > limit ? String(kept.prefix(limit)) + "…" : kept
    }

    /// Whether `text` holds nothing `escaped` would change: a URL, for one, carries such characters percent-encoded.
    public static func isPlain(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: mustBeEscaped)
    }

    /// C0 and C1 controls and DEL (category Cc: ESC, BEL, CR, LF, the 8-bit CSI U+009B), line and paragraph
    /// separators, and the bidirectional controls that make text read otherwise than it is stored (U+061C,
    /// U+200E-U+200F, U+202A-U+202E, U+2066-U+2069). The one definition: the JSON writer escapes the same set.
    public static func mustBeEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isBidiControl
        }
    }

    private static func written(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
