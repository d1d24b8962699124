import Foundation
import HTTPTransport
import TestSupport
import Testing

extension HTTPTransportTests {
    /// Requests through Debian's tinyproxy, as through a company's proxy: https tunnelled with CONNECT and still
    /// verified end to end, `noProxy` hosts reached directly, and a proxy that is down named as the trouble.
    @Suite struct Proxy {
        @Test func httpsGoesThroughTheProxyAndTLSIsStillVerifiedWithTheOrigin() async throws {
            let fixture = try TLSFixture()
            let server = try await TestHTTPServer.start(tls: fixture)
            let proxy = try TinyProxy()
            let transport = CurlTransport(configuration: .init(
                caBundlePath: fixture.caCertificatePath, proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            #expect(try await transport.send(HTTPRequest(url: server.url("/status/200"))).status == 200)
            #expect(try proxy.requests() == ["CONNECT 127.0.0.1:\(server.server.port) HTTP/1.1"])

            let untrusted = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            let error = try #require(await sendError(untrusted, HTTPRequest(url: server.url("/status/200"))))
            guard case .tlsFailure = error else { Issue.record("got \(error)"); return }
        }

        @Test func hostsInNoProxyAreReachedDirectly() async throws {
            let fixture = try TLSFixture()
            let server = try await TestHTTPServer.start(tls: fixture)
            let proxy = try TinyProxy()
            let transport = CurlTransport(configuration: .init(
                caBundlePath: fixture.caCertificatePath,
                proxy: HTTPProxySettings(httpsProxy: proxy.url, noProxy: "example.com,127.0.0.1")))
            #expect(try await transport.send(HTTPRequest(url: server.url("/status/200"))).status == 200)
            #expect(try proxy.requests().isEmpty)
        }

        @Test func plainHTTPUsesTheHTTPProxyOnly() async throws {
            let server = try await TestHTTPServer.start()
            let proxy = try TinyProxy()
            let httpsOnly = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            #expect(try await httpsOnly.send(HTTPRequest(url: server.url("/status/200"))).status == 200)
            #expect(try proxy.requests().isEmpty)

            let http = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpProxy: proxy.url)))
            #expect(try await http.send(HTTPRequest(url: server.url("/status/200"))).status == 200)
            #expect(try proxy.requests() == ["GET \(server.url("/status/200")) HTTP/1.1"])
        }

        @Test func aProxyThatCannotBeResolvedIsNamedAsTheTrouble() async throws {
            let transport = CurlTransport(configuration: .init(
                connectTimeout: .seconds(5), proxy: HTTPProxySettings(httpsProxy: "http://proxy.invalid:3128")))
            let error = try #require(await sendError(transport, HTTPRequest(url: "https://cognito-idp.us-east-1.amazonaws.com/")))
            guard case .proxyFailure = error else { Issue.record("got \(error)"); return }
            #expect(error.isRetryable, "a proxy that is down is network trouble, never a reason to sign out")
        }

        /// libcurl reports a refused connection the same way for the proxy and for the server: the proxy is named only
        /// when the refused address is the proxy's, whichever way its URL is written.
        @Test func aProxyThatIsDownIsNamedAsTheTroubleAndADirectHostIsNot() async throws {
            let ports = FreeLoopbackPorts.run(of: 2)
            let (proxyPort, serverPort) = (ports[0], ports[1])
            let request = HTTPRequest(url: "https://127.0.0.1:\(serverPort)/")
            for proxy in ["http://127.0.0.1:\(proxyPort)", "127.0.0.1:\(proxyPort)", "http://user:pass@127.0.0.1:\(proxyPort)/"] {
                let transport = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy)))
                let error = try #require(await sendError(transport, request))
                guard case .proxyFailure(let reason) = error else { Issue.record("\(proxy): got \(error)"); continue }
                #expect(reason.contains("port \(proxyPort)"))
                #expect(error.isRetryable)
            }
            let direct = CurlTransport(configuration: .init(
                proxy: HTTPProxySettings(httpsProxy: "http://127.0.0.1:\(proxyPort)", noProxy: "127.0.0.1")))
            let error = try #require(await sendError(direct, request))
            guard case .cannotConnect(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains("port \(serverPort)"), "the server is named, not the proxy")
        }

        @Test func aTunnelTheProxyRefusesIsNamedAsTheTrouble() async throws {
            let proxy = try TinyProxy()
            let transport = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            let error = try #require(await sendError(transport, HTTPRequest(url: "https://host.invalid/")))
            guard case .proxyFailure = error else { Issue.record("got \(error)"); return }
        }
    }
}
