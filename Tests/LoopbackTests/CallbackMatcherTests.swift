import Testing

@testable import Loopback

/// The request lines a browser (or a stray) sends, judged against path `/callback` and state `xyz`. The code and
/// state are the example values of RFC 6749 section 4.1.2.
@Suite struct CallbackMatcherTests {
    private let matcher = CallbackMatcher(path: "/callback", expectedState: "xyz")

    private func judge(_ line: String) -> CallbackMatcher.Verdict? {
        RequestLine(head: ArraySlice(Array("\(line)\r\nHost: 127.0.0.1\r\n\r\n".utf8))).map(matcher.judge)
    }

    @Test(arguments: [
        (
            "GET /callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz HTTP/1.1",
            CallbackMatcher.Verdict.authorized(code: "SplxlOBeZQQYbYS6WxSbIA")
        ),
        ("GET /callback?state=xyz&code=a%2Fb+c%3D HTTP/1.0", .authorized(code: "a/b c=")),
        ("GET /favicon.ico HTTP/1.1", .notFound),
        ("GET / HTTP/1.1", .notFound),
        ("GET /callback/extra?code=a&state=xyz HTTP/1.1", .notFound),
        ("GET /Callback?code=a&state=xyz HTTP/1.1", .notFound),
        ("POST /callback?code=a&state=xyz HTTP/1.1", .badRequest(.notGET)),
        ("HEAD /callback?code=a&state=xyz HTTP/1.1", .badRequest(.notGET)),
        ("GET /callback?code=a&state=xyy HTTP/1.1", .badRequest(.stateMismatch)),
        ("GET /callback?code=a&state=xyzz HTTP/1.1", .badRequest(.stateMismatch)),
        ("GET /callback?code=a HTTP/1.1", .badRequest(.stateMismatch)),
        ("GET /callback?code=a&state= HTTP/1.1", .badRequest(.stateMismatch)),
        ("GET /callback?code=a&state=xyz&state=xyz HTTP/1.1", .badRequest(.malformedQuery)),
        ("GET /callback?code=a&code=b&state=xyz HTTP/1.1", .badRequest(.malformedQuery)),
        ("GET /callback?code=a&state=xyz&x=1&x=2 HTTP/1.1", .badRequest(.malformedQuery)),
        ("GET /callback?code=%zz&state=xyz HTTP/1.1", .badRequest(.malformedQuery)),
        ("GET /callback?code=%C3%28&state=xyz HTTP/1.1", .badRequest(.malformedQuery)),
        ("GET /callback?state=xyz HTTP/1.1", .badRequest(.missingCode)),
        ("GET /callback?code=&state=xyz HTTP/1.1", .badRequest(.missingCode)),
        ("GET /callback?error=access_denied&state=xyz HTTP/1.1", .denied(error: "access_denied", description: nil)),
        (
            "GET /callback?error=access_denied&error_description=User+cancelled+login&state=xyz HTTP/1.1",
            .denied(error: "access_denied", description: "User cancelled login")
        ),
        (
            "GET /callback?error=server_error&error_description=%1B%5B31mred&state=xyz HTTP/1.1",
            .denied(error: "server_error", description: #"\u{1B}[31mred"#)
        ),
        ("GET /callback?error=access_denied&state=wrong HTTP/1.1", .badRequest(.stateMismatch)),
        ("GET /callback?error=access_denied HTTP/1.1", .badRequest(.stateMismatch)),
    ])
    func verdicts(line: String, verdict: CallbackMatcher.Verdict) {
        #expect(judge(line) == verdict)
    }

    @Test(arguments: [
        "GET /callback", "GET /callback?code=a HTTP/2", "GET  /callback HTTP/1.1", "GET /a\u{1}b HTTP/1.1", "",
    ])
    func malformedRequestLinesAreRefused(line: String) {
        #expect(judge(line) == nil)
    }
}
