import NetworkHosts
import Testing

/// `ServerText.escaped`: the one function that makes another party's text safe for a terminal.
@Suite struct ServerTextTests {
    @Test(arguments: [
        ("\u{1B}]0;title\u{7}", #"\u{1B}]0;title\u{7}"#),
        ("\u{1B}[2J", #"\u{1B}[2J"#),
        ("line\r\nauthvault: fake", #"line\r\nauthvault: fake"#),
        ("tab\there", #"tab\there"#),
        ("nul\u{0}del\u{7F}", #"nul\u{0}del\u{7F}"#),
        ("8-bit CSI\u{9B}31m", #"8-bit CSI\u{9B}31m"#),
        ("txt.exe\u{202E}fdp", #"txt.exe\u{202E}fdp"#),
        ("a\u{2028}b\u{2029}c", #"a\u{2028}b\u{2029}c"#),
    ])
    func controlsAreWrittenAsVisibleEscapes(text: String, shown: String) {
        #expect(ServerText.escaped(text) == shown)
    }

    /// The set the JSON writer shares: every C0 and C1 control, DEL, U+2028/2029, U+202A-U+202E, U+2066-U+2069 (and
    /// the other bidi marks); nothing else of the first 0x3000 code points.
    @Test func theSetIsTheControlsTheSeparatorsAndTheBidiControls() {
        let expected = Set(
            Array(0x00...0x1F) + Array(0x7F...0x9F) + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029]
                + Array(0x202A...0x202E) + Array(0x2066...0x2069))
        let found = Set(
            (UInt32(0)..<0x3000).compactMap { Unicode.Scalar($0) }.filter(ServerText.mustBeEscaped).map {
                Int($0.value)
            })
        #expect(
            found == expected,
            "extra: \(found.subtracting(expected).sorted()), missing: \(expected.subtracting(found).sorted())")
    }

    @Test func plainTextIsKeptAndEscapingTwiceChangesNothing() {
        let plain = #"Incorrect username or password. Zoë 👩‍💻 C:\path"#
        #expect(ServerText.escaped(plain) == plain)
        let once = ServerText.escaped("a\u{1B}[2Jb\nc")
        #expect(ServerText.escaped(once) == once)
    }

    @Test func longTextIsCutAfterEscaping() {
        #expect(ServerText.escaped(String(repeating: "\u{7}", count: 100), limit: 10) == #"\u{7}\u{7}"# + "…")
        #expect(ServerText.escaped("short", limit: 10) == "short")
    }
}
