import Foundation
import Loopback
import TestSupport
import Testing

/// The credentials endpoint on the loopback listener: only GET on its path with the exact token reaches the caller;
/// the head parser reads the one `Authorization` field and refuses a malformed or ambiguous head.
@Suite struct LoopbackEndpointTests {
    static let token = "per-run-token-0123456789"

    static func port(of endpoint: LoopbackEndpoint) throws -> Int {
        let authority = try #require(URL(string: endpoint.url)).port
        return try #require(authority)
    }

    /// A listener that cannot start says what it was for: `exec --aws`'s endpoint is no sign-in.
    @Test func aFailureToListenNamesWhatTheListenerWasFor() {
        let endpoint = LoopbackError.bindFailed("no thread", listener: .endpoint).description
        #expect(endpoint == "Cannot open the local endpoint on 127.0.0.1: no thread.")
        let redirect = LoopbackError.bindFailed("no thread", listener: .signInRedirect).description
        #expect(redirect == "Cannot listen for the sign-in redirect: no thread.")
    }

    @Test func onlyTheTokenHolderReachesTheCallerAndTheOthersGet401403404405() async throws {
        let endpoint = try LoopbackEndpoint(path: "/credentials", token: Self.token)
        #expect(endpoint.url.hasPrefix("http://127.0.0.1:") && endpoint.url.hasSuffix("/credentials"))
        let port = try Self.port(of: endpoint)
        let answering = Task {
            var answered = 0
            for await request in endpoint.requests {
                answered += 1
                request.respond(json: Array(#"{"answer":\#(answered)}"#.utf8))
            }
            return answered
        }
        #expect(try await Browser.get("/credentials", port: port).status == 401)
        #expect(
            try await Browser.get("/credentials", port: port, extraHeaders: "Authorization: wrong\r\n").status == 403)
        let offByOne = String(Self.token.dropLast()) + "5"
        #expect(
            try await Browser.get("/credentials", port: port, extraHeaders: "Authorization: \(offByOne)\r\n").status
                == 403)
        #expect(
            try await Browser.get("/other", port: port, extraHeaders: "Authorization: \(Self.token)\r\n").status == 404)
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let posted = try await Browser.send(
            "POST /credentials HTTP/1.1\r\n\(host)Authorization: \(Self.token)\r\nContent-Length: 0\r\n\r\n",
            port: port)
        #expect(posted.status == 405)
        let twice = try await Browser.send(
            "GET /credentials HTTP/1.1\r\n\(host)Authorization: \(Self.token)\r\nauthorization: \(Self.token)\r\n\r\n",
            port: port)
        #expect(twice.status == 400, "a repeated Authorization is ambiguous")
        let answer = try await Browser.get(
            "/credentials", port: port, extraHeaders: "authorization:  \(Self.token) \r\n")
        #expect(answer.status == 200 && answer.body == #"{"answer":1}"#)
        #expect(answer.headers["content-type"] == "application/json" && answer.headers["cache-control"] == "no-store")

        endpoint.close()
        #expect(await answering.value == 1, "the requests end once the endpoint is closed")
        await #expect(throws: (any Error).self) { try await Browser.get("/credentials", port: port) }
    }

    /// A web page whose name an attacker re-pointed at 127.0.0.1 (DNS rebinding) sends that name as `Host`: refused
    /// with 403 even with the token, before the path is judged; no `Host` (or two) gets 400; only the URL's own
    /// authority, as the AWS SDKs send it, is answered.
    @Test func onlyTheURLsOwnHostIsAnswered() async throws {
        let endpoint = try LoopbackEndpoint(path: "/credentials", token: Self.token)
        let port = try Self.port(of: endpoint)
        let answering = Task {
            for await request in endpoint.requests { request.respond(json: Array("{}".utf8)) }
        }
        let authorized = "Authorization: \(Self.token)\r\n"
        for (authority, status) in [
            ("attacker.example:\(port)", 403), ("localhost:\(port)", 403), ("127.0.0.1", 403),
            ("127.0.0.1:\(port + 1)", 403), ("[::1]:\(port)", 403), ("127.0.0.1:\(port)", 200),
        ] {
            let answer = try await Browser.get(
                "/credentials", port: port, authority: authority, extraHeaders: authorized)
            #expect(answer.status == status, "Host: \(authority)")
        }
        let elsewhere = try await Browser.get(
            "/other", port: port, authority: "attacker.example", extraHeaders: authorized)
        #expect(elsewhere.status == 403, "not 404: the paths are not told")
        let nameless = try await Browser.send("GET /credentials HTTP/1.1\r\n\(authorized)\r\n", port: port)
        #expect(nameless.status == 400)
        let twice = try await Browser.send(
            "GET /credentials HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: 127.0.0.1:\(port)\r\n\(authorized)\r\n",
            port: port)
        #expect(twice.status == 400)
        endpoint.close()
        await answering.value
    }

    @Test func aRequestNobodyAnswersGets503() async throws {
        let endpoint = try LoopbackEndpoint(path: "/credentials", token: Self.token)
        let port = try Self.port(of: endpoint)
        let dropping = Task {
            for await request in endpoint.requests { _ = request }
        }
        let answer = try await Browser.get(
            "/credentials", port: port, extraHeaders: "Authorization: \(Self.token)\r\n")
        #expect(answer.status == 503)
        endpoint.close()
        await dropping.value
    }

    @Test func theHeadParserReadsAuthorizationAndRefusesMalformedFields() {
        func head(_ text: String) -> RequestHead? { RequestHead(head: Array(text.utf8)[...]) }
        let parsed = head("GET /p?q=1 HTTP/1.1\r\nHost: x\r\nAUTHORIZATION:\t abc def \t\r\n\r\n")
        #expect(parsed?.line.method == "GET" && parsed?.line.target == "/p?q=1")
        #expect(parsed?.authorization == "abc def" && parsed?.host == "x")
        #expect(head("GET / HTTP/1.1\r\nhOST:  127.0.0.1:80 \r\n\r\n")?.host == "127.0.0.1:80")
        #expect(head("GET / HTTP/1.1\r\nHost: x\r\n\r\n")?.authorization == nil)
        #expect(head("GET / HTTP/1.1\r\nAuthorization: a\r\n\r\n")?.host == nil)
        #expect(head("GET / HTTP/1.1\r\nHost: x\r\nHost: x\r\n\r\n") == nil)
        #expect(head("GET / HTTP/1.1\r\nno colon here\r\n\r\n") == nil)
        #expect(head("GET / HTTP/1.1\r\n: empty name\r\n\r\n") == nil)
        #expect(head("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n") == nil)
        #expect(head("GET / HTTP/1.1\r\nX: \u{1}\r\n\r\n") == nil)
        #expect(head("GET / HTTP/1.1\r\nAuthorization: a\r\nAuthorization: a\r\n\r\n") == nil)
        func fields(_ count: Int) -> String { (0..<count).map { "X-\($0): y\r\n" }.joined() }
        #expect(head("GET / HTTP/1.1\r\n\(fields(RequestHead.maximumFields))\r\n") != nil)
        #expect(head("GET / HTTP/1.1\r\n\(fields(RequestHead.maximumFields + 1))\r\n") == nil)
    }
}
