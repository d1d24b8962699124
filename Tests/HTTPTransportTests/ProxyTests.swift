import Foundation
import HTTPTransport
import TestSupport
import Testing

extension HTTPTransportTests {
    /// Requests through Debian's tinyproxy, as through a company's proxy: https tunnelled with CONNECT and still
    /// verified end to end, `noProxy` hosts reached directly, loopback endpoints never sent to it, and a proxy that is
    /// down named as the trouble. The servers are local: the proxy alone resolves `proxiedHost` to them.
    @Suite struct Proxy {
        static let proxiedHost = "api.proxied.test"

        @Test func httpsGoesThroughTheProxyAndTLSIsStillVerifiedWithTheOrigin() async throws {
            let fixture = try TLSFixture(subjectAltNames: ["DNS:\(Self.proxiedHost)"])
            let server = try await TestHTTPServer.start(tls: fixture)
            let proxy = try TinyProxy(resolving: [Self.proxiedHost])
            let url = "https://\(Self.proxiedHost):\(server.server.port)/status/200"
            let transport = CurlTransport(
                configuration: .init(
                    caBundlePath: fixture.caCertificatePath, proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            #expect(try await transport.send(HTTPRequest(url: url)).status == 200)
            #expect(try proxy.requests() == ["CONNECT \(Self.proxiedHost):\(server.server.port) HTTP/1.1"])

            let untrusted = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            let error = try #require(await sendError(untrusted, HTTPRequest(url: url)))
            guard case .tlsFailure = error else {
                Issue.record("got \(error)")
                return
            }
        }

        @Test func hostsInNoProxyAreReachedDirectly() async throws {
            let proxy = try TinyProxy(resolving: [Self.proxiedHost])
            let transport = CurlTransport(
                configuration: .init(
                    connectTimeout: .seconds(5),
                    proxy: HTTPProxySettings(httpsProxy: proxy.url, noProxy: "example.com,\(Self.proxiedHost)")))
            // Direct, so resolved by this process, which does not know the name.
            let error = try #require(await sendError(transport, HTTPRequest(url: "https://\(Self.proxiedHost):9/")))
            guard case .cannotResolveHost = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(proxy.connections().isEmpty)
        }

        /// An emulator or a local provider is on this machine: a proxy (which may log, or be another user's) never
        /// sees its requests, plain http (passwords and tokens in clear) or https, whatever the settings say.
        @Test func aLoopbackEndpointNeverGoesThroughAProxy() async throws {
            let fixture = try TLSFixture()
            let secure = try await TestHTTPServer.start(tls: fixture)
            let plain = try await TestHTTPServer.start()
            let proxy = try TinyProxy()
            let urls = [
                secure.url("/status/200"), "https://localhost:\(secure.server.port)/status/200",
                plain.url("/status/200"), "http://localhost:\(plain.server.port)/status/200",
            ]
            for noProxy in [nil, "", "example.com"] {
                let transport = CurlTransport(
                    configuration: .init(
                        caBundlePath: fixture.caCertificatePath,
                        proxy: HTTPProxySettings(httpsProxy: proxy.url, noProxy: noProxy)))
                for url in urls {
                    #expect(try await transport.send(HTTPRequest(url: url)).status == 200, "\(url)")
                }
            }
            #expect(proxy.connections().isEmpty, "\(proxy.connections())")
        }

        @Test func aProxyThatCannotBeResolvedIsNamedAsTheTrouble() async throws {
            let transport = CurlTransport(
                configuration: .init(
                    connectTimeout: .seconds(5), proxy: HTTPProxySettings(httpsProxy: "http://proxy.invalid:3128")))
            let error = try #require(
                await sendError(transport, HTTPRequest(url: "https://cognito-idp.us-east-1.amazonaws.com/")))
            guard case .proxyFailure = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(error.isRetryable, "a proxy that is down is network trouble, never a reason to sign out")
        }

        /// libcurl reports a refused connection the same way for the proxy and for the server: the proxy is named only
        /// when the refused address is the proxy's, whichever way its URL is written.
        @Test func aProxyThatIsDownIsNamedAsTheTroubleAndADirectHostIsNot() async throws {
            let ports = FreeLoopbackPorts.run(of: 2)
            let (proxyPort, serverPort) = (ports[0], ports[1])
            let request = HTTPRequest(url: "https://\(Self.proxiedHost):\(serverPort)/")
            for proxy in [
                "http://127.0.0.1:\(proxyPort)", "127.0.0.1:\(proxyPort)", "http://user:pass@127.0.0.1:\(proxyPort)/",
            ] {
                let transport = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy)))
                let error = try #require(await sendError(transport, request))
                guard case .proxyFailure(let reason) = error else {
                    Issue.record("\(proxy): got \(error)")
                    continue
                }
                #expect(reason.contains("port \(proxyPort)"))
                #expect(error.isRetryable)
            }
            // A loopback server is reached directly even with the proxy set: its refusal names the server.
            let direct = CurlTransport(
                configuration: .init(proxy: HTTPProxySettings(httpsProxy: "http://127.0.0.1:\(proxyPort)")))
            let error = try #require(await sendError(direct, HTTPRequest(url: "https://127.0.0.1:\(serverPort)/")))
            guard case .cannotConnect(let reason) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(reason.contains("port \(serverPort)"), "the server is named, not the proxy")
        }

        @Test func aTunnelTheProxyRefusesIsNamedAsTheTrouble() async throws {
            let proxy = try TinyProxy()
            let transport = CurlTransport(configuration: .init(proxy: HTTPProxySettings(httpsProxy: proxy.url)))
            let error = try #require(await sendError(transport, HTTPRequest(url: "https://host.invalid/")))
            guard case .proxyFailure = error else {
                Issue.record("got \(error)")
                return
            }
        }
    }
}
