import NetworkHosts
import Testing

@testable import HTTPTransport

extension HTTPTransportTests {
    /// `no_proxy` means here what it means to curl (its noproxy.c), now that this package alone decides whether a
    /// request goes through the proxy (so that a refused connection is known to be the proxy's).
    @Suite struct NoProxy {
        @Test(arguments: [
            ("example.com", "example.com", true), ("example.com", "api.example.com", true),
            (".example.com", "api.example.com", true), (".example.com", "example.com", true),
            ("example.com", "notexample.com", false), ("api.example.com", "example.com", false),
            ("EXAMPLE.com.", "Example.COM", true), ("a.test, example.com", "example.com", true),
            ("a.test\texample.com", "example.com", true), ("*", "anything.test", true), ("*.test", "a.test", false),
            ("", "example.com", false), ("10.1.2.3", "10.1.2.3", true), ("10.1.2.3", "10.1.2.4", false),
            ("10.0.0.0/8", "10.200.0.1", true), ("10.0.0.0/8", "11.0.0.1", false), ("10.1.2.0/0", "10.1.2.0", true),
            ("10.1.2.0/0", "10.9.9.9", false), ("10.0.0.0/33", "10.0.0.1", false), ("10.0.0.0/8", "example.com", false),
            ("fd00::/8", "[fd12::1]", true), ("fd00::/8", "[fe80::1]", false), ("2001:db8::1", "[2001:db8::1]", true),
            ("10.0.0.0/8", "[::ffff:10.0.0.1]", false), ("example.com", "10.0.0.1", false),
        ])
        func anEntryMatchesAsCurlMatchesIt(noProxy: String, host: String, direct: Bool) throws {
            let host = try #require(NetworkHost(host))
            #expect(NoProxyList(noProxy).contains(host) == direct)
        }

        @Test func aHostInNoProxyGetsNoProxyAndTheOthersGetIt() {
            let settings = HTTPProxySettings(httpsProxy: "http://proxy.test:3128", noProxy: ".internal.test,10.0.0.0/8")
            #expect(settings.proxy(for: "https://cognito-idp.us-east-1.amazonaws.com/") == "http://proxy.test:3128")
            #expect(settings.proxy(for: "https://idp.internal.test/oauth2/token") == nil)
            #expect(settings.proxy(for: "https://10.1.2.3:8443/") == nil)
            #expect(settings.proxy(for: "https://127.0.0.1:8443/") == nil, "loopback, whatever the settings")
        }
    }
}
