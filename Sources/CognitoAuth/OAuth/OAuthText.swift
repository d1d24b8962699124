/// Text from the other side (an error description, an unknown code) made safe to print: no control characters
/// (no terminal escapes), bounded length.
enum OAuthText {
    static func printable(_ text: String, limit: Int = 300) -> String {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.generalCategory.isControl }))
        return kept.count > limit ? String(kept.prefix(limit)) + "…" : kept
    }
}

private extension Unicode.GeneralCategory {
    var isControl: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
