import Foundation
import Loopback
import TestSupport
import Testing

@Suite struct PortSelectionTests {
    @Test func aBusyFirstPortMeansTheNextRegisteredOneIsUsed() async throws {
        let ports = try LoopbackPorts.free(2)
        let holder = try PortHolder(host: "127.0.0.1", port: ports[0])
        let uris = ["http://127.0.0.1:\(ports[0])/callback", "http://127.0.0.1:\(ports[1])/other"]
        let listener = try LoopbackListener(redirectURIs: uris, state: "xyz")
        #expect(listener.redirectURI == uris[1])
        #expect(try LoopbackPorts.listening().contains("127.0.0.1:\(ports[1])"))

        async let browser = Browser.get("/other?code=c&state=xyz", port: ports[1])
        #expect(try await listener.waitForCallback().code == "c")
        #expect(try await browser.status == 200)
        withExtendedLifetime(holder) {}
    }

    @Test func everyPortBusyIsReportedWithEachPort() throws {
        let ports = try LoopbackPorts.free(2)
        let holders = try ports.map { try PortHolder(host: "127.0.0.1", port: $0) }
        let uris = [
            "http://127.0.0.1:\(ports[0])/callback", "http://localhost:\(ports[1])/callback",
            "http://127.0.0.1:\(ports[0])/again",
        ]
        #expect(throws: LoopbackError.allPortsBusy(ports)) { try LoopbackListener(redirectURIs: uris, state: "xyz") }
        withExtendedLifetime(holders) {}
    }

    @Test func itListensOnIPv4LoopbackOnly() throws {
        let fixture = try ListenerFixture()
        #expect(fixture.listener.listeningAddresses == ["127.0.0.1:\(fixture.port)"])
        let listening = try LoopbackPorts.listening().filter { $0.hasSuffix(":\(fixture.port)") }
        #expect(listening == ["127.0.0.1:\(fixture.port)"])
    }

    @Test(.enabled(if: LoopbackPorts.hasIPv6Loopback, "this machine has no IPv6 loopback"))
    func itListensOnIPv6LoopbackOnly() async throws {
        let port = try PortHolder(host: "::1", port: 0).port
        let listener = try LoopbackListener(redirectURIs: ["http://[::1]:\(port)/cb"], state: "xyz")
        #expect(listener.listeningAddresses == ["[::1]:\(port)"])
        #expect(try LoopbackPorts.listening().filter { $0.hasSuffix(":\(port)") } == ["[::1]:\(port)"])

        let other = try await Browser.get("/cb?code=c6&state=xyz", port: port, host: "::1", authority: "[::2]:\(port)")
        #expect(other.status == 403)
        async let browser = Browser.get("/cb?code=c6&state=xyz", port: port, host: "::1")
        let callback = try await listener.waitForCallback()
        #expect(callback.url == "http://[::1]:\(port)/cb?code=c6&state=xyz")
        callback.respond(with: .success("ok"))
        #expect(try await browser.status == 200)
    }

    @Test func localhostListensOnBothLoopbackAddresses() async throws {
        let port = try LoopbackPorts.free(1)[0]
        let listener = try LoopbackListener(redirectURIs: ["http://localhost:\(port)/callback"], state: "xyz")
        var expected: Set<String> = ["127.0.0.1:\(port)"]
        if LoopbackPorts.hasIPv6Loopback { expected.insert("[::1]:\(port)") }
        #expect(Set(listener.listeningAddresses) == expected)
        #expect(try LoopbackPorts.listening().filter { $0.hasSuffix(":\(port)") } == expected)

        // The browser names the host as the URI does; the address behind it, as it was asked, is not the name.
        let byAddress = try await Browser.get("/callback?code=c&state=xyz", port: port)
        #expect(byAddress.status == 403 && byAddress.hasPageHeaders)
        async let browser = Browser.get("/callback?code=c&state=xyz", port: port, authority: "LocalHost:\(port)")
        let callback = try await listener.waitForCallback()
        #expect(callback.urlWithoutQuery == "http://localhost:\(port)/callback")
        callback.respond(with: .success("ok"))
        #expect(try await browser.status == 200)
    }

    @Test(arguments: ["0.0.0.0", "192.0.2.1", "[::]", "example.com"])
    func aNonLoopbackHostIsRejectedAndNothingListens(host: String) throws {
        let port = try LoopbackPorts.free(1)[0]
        let uri = "http://\(host):\(port)/callback"
        #expect(throws: LoopbackError.invalidRedirectURI(uri, problem: .notLoopback)) {
            try LoopbackListener(redirectURIs: ["http://127.0.0.1:\(port)/callback", uri], state: "xyz")
        }
        #expect(try LoopbackPorts.listening().filter { $0.hasSuffix(":\(port)") }.isEmpty)
    }
}
