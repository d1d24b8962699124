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
