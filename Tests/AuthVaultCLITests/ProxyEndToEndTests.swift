import Foundation
import Testing
import TestSupport

/// The binary behind a proxy (Debian's tinyproxy) as a user sets one: curl's variables in the environment, the
/// hosts of `no_proxy` reached directly, and a proxy that is down reported as network trouble that keeps the session.
@Suite struct ProxyEndToEndTests {
    @Test func aRefreshGoesThroughTheProxyOfTheEnvironment() async throws {
        let profile = try await SignedInProfile.make()
        let proxy = try TinyProxy()
        let refresh = try await profile.cli.run(["refresh"], extraEnvironment: ["http_proxy": proxy.url])
        #expect(refresh.status == 0, "\(refresh.stderrText)")
        // The refresh, and the JWKS to verify the new tokens (a fresh process has no copy of it).
        let requests = try proxy.requests()
        #expect(requests.first == "POST \(profile.proxy.endpoint) HTTP/1.1", "\(requests)")
        #expect(requests.dropFirst().allSatisfy { $0.hasPrefix("GET ") && $0.contains("/.well-known/jwks.json") }, "\(requests)")

        let direct = try await profile.cli.run(["refresh"], extraEnvironment: ["http_proxy": proxy.url, "no_proxy": "127.0.0.1"])
        #expect(direct.status == 0, "\(direct.stderrText)")
        #expect(try proxy.requests() == requests, "no_proxy hosts are reached directly")
        profile.cli.expectNoSecretLeaks()
    }

    @Test func aProxyThatIsDownIsNetworkTroubleAndKeepsTheSession() async throws {
        let profile = try await SignedInProfile.make()
        let closed = FreeLoopbackPorts.run(of: 1)[0]
        let refresh = try await profile.cli.run(["refresh"], extraEnvironment: ["http_proxy": "http://127.0.0.1:\(closed)"])
        #expect(refresh.status == 5, "\(refresh.stderrText)")
        #expect(refresh.stderrText.contains("the proxy failed"), "\(refresh.stderrText)")
        #expect(refresh.stderrText.contains("127.0.0.1 port \(closed)"), "\(refresh.stderrText)")
        #expect(try await profile.cli.run(["token"]).status == 0, "the session is kept")
        profile.cli.expectNoSecretLeaks()
    }
}
