import Testing

@testable import Loopback

@Suite struct RegisteredRedirectURITests {
    @Test(arguments: [
        ("http://127.0.0.1:8400/callback", 8400, "/callback"),
        ("http://localhost:8401/callback", 8401, "/callback"),
        ("http://[::1]:8402/cb", 8402, "/cb"),
        ("http://LOCALHOST:8403", 8403, "/"),
        ("HTTP://127.0.0.2:8404/a/b?x=1", 8404, "/a/b"),
    ])
    func servableURIsKeepTheirExactString(uri: String, port: Int, path: String) throws {
        let parsed = try RegisteredRedirectURI(uri)
        #expect(parsed.string == uri)
        #expect(parsed.port == port)
        #expect(parsed.path == path)
    }

    @Test(arguments: [
        ("https://127.0.0.1:8400/callback", LoopbackError.RedirectURIProblem.notHTTP),
        ("http://0.0.0.0:8400/callback", .notLoopback),
        ("http://[::]:8400/callback", .notLoopback),
        ("http://192.168.1.20:8400/callback", .notLoopback),
        ("http://example.com:8400/callback", .notLoopback),
        ("http://localhost.example.com:8400/callback", .notLoopback),
        ("http://[::ffff:127.0.0.1]:8400/callback", .notLoopback),
        ("http://127.0.0.1/callback", .missingPort),
        ("http://127.0.0.1:/callback", .missingPort),
        ("http://[::1]/callback", .missingPort),
        ("http://127.0.0.1:8400/callback#done", .hasFragment),
        ("http://127.0.0.1:65536/callback", .malformed),
        ("http://127.0.0.1:84a0/callback", .malformed),
        ("http://user@127.0.0.1:8400/callback", .malformed),
        ("http://127.0.0.1:8400/call back", .malformed),
        ("127.0.0.1:8400/callback", .malformed),
    ])
    func unservableURIsAreRejected(uri: String, problem: LoopbackError.RedirectURIProblem) {
        #expect(throws: LoopbackError.invalidRedirectURI(uri, problem: problem)) { try RegisteredRedirectURI(uri) }
    }

    @Test func anEmptyListIsRejected() {
        #expect(throws: LoopbackError.invalidRedirectURI("", problem: .noneRegistered)) {
            try LoopbackListener(redirectURIs: [], state: "xyz")
        }
    }
}
