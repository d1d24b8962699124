import Foundation
import HTTPTransport
import TestSupport
import Testing

extension HTTPTransportTests {
    @Suite struct TLS {
        @Test func privateCATrustedThroughCABundle() async throws {
            let fixture = try TLSFixture()
            let server = try await TestHTTPServer.start(tls: fixture)
            let transport = CurlTransport(configuration: .init(caBundlePath: fixture.caCertificatePath))
            let echo = try Echo(
                try await transport.send(HTTPRequest(method: "POST", url: server.url("/echo"), body: [1, 2, 3])))
            #expect(echo.bodyBytes == [1, 2, 3])
            let overLocalhost = try await transport.send(
                HTTPRequest(url: server.url("/status/200").replacingOccurrences(of: "127.0.0.1", with: "localhost")))
            #expect(overLocalhost.status == 200)
        }

        @Test func privateCAWithoutCABundleIsATLSFailure() async throws {
            let fixture = try TLSFixture()
            let server = try await TestHTTPServer.start(tls: fixture)
            let error = try #require(await sendError(CurlTransport(), HTTPRequest(url: server.url("/echo"))))
            guard case .tlsFailure = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(!error.isRetryable)
            #expect(!error.description.contains("--ca-bundle"), "a library names no command-line flag")
        }

        @Test func certificateForAnotherHostIsATLSFailure() async throws {
            let fixture = try TLSFixture(subjectAltNames: ["DNS:other.example"])
            let server = try await TestHTTPServer.start(tls: fixture)
            let transport = CurlTransport(configuration: .init(caBundlePath: fixture.caCertificatePath))
            let error = try #require(await sendError(transport, HTTPRequest(url: server.url("/echo"))))
            guard case .tlsFailure = error else {
                Issue.record("got \(error)")
                return
            }
        }

        @Test func missingCABundleIsUnreadable() async throws {
            let directory = try TemporaryDirectory()
            let missing = directory.appending("absent.pem")
            let transport = CurlTransport(configuration: .init(caBundlePath: missing))
            let error = await sendError(transport, HTTPRequest(url: "https://127.0.0.1:1/"))
            #expect(error == .caBundleUnreadable("\(missing): No such file or directory"))
            #expect(error?.isRetryable == false)
        }

        /// The bundle decides which servers are believed: one another user could change is refused with the fix,
        /// before any connection.
        @Test func caBundleOthersCanChangeIsRefused() async throws {
            let fixture = try TLSFixture()
            let server = try await TestHTTPServer.start(tls: fixture)
            chmod(fixture.caCertificatePath, 0o666)
            let transport = CurlTransport(configuration: .init(caBundlePath: fixture.caCertificatePath))
            let error = try #require(await sendError(transport, HTTPRequest(url: server.url("/echo"))))
            guard case .caBundleUnreadable = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(error.description.contains("chmod 0644 '\(fixture.caCertificatePath)'"), "\(error)")
            if getuid() == 0 {
                chmod(fixture.caCertificatePath, 0o644)
                chown(fixture.caCertificatePath, 12345, 12345)
                let stranger = try #require(await sendError(transport, HTTPRequest(url: server.url("/echo"))))
                #expect(stranger.description.contains("chown root '\(fixture.caCertificatePath)'"), "\(stranger)")
            }
            let trusted = fixture.directory.appending("trusted.pem")
            _ = FileManager.default.createFile(
                atPath: trusted, contents: try Data(contentsOf: URL(fileURLWithPath: fixture.caCertificatePath)),
                attributes: [.posixPermissions: 0o644])
            let counted = try await CurlTransport(configuration: .init(caBundlePath: trusted)).send(
                HTTPRequest(url: server.url("/connections")))
            #expect(
                try JSONSerialization.jsonObject(with: Data(counted.body)) as? [String: Int] == ["connections": 1],
                "only the count itself reached the server")
        }

        @Test func caBundleWithoutCertificatesIsUnreadable() async throws {
            let fixture = try TLSFixture()
            let server = try await TestHTTPServer.start(tls: fixture)
            let garbage = fixture.directory.appending("garbage.pem")
            try "not a certificate\n".write(toFile: garbage, atomically: true, encoding: .utf8)
            let transport = CurlTransport(configuration: .init(caBundlePath: garbage))
            let error = try #require(await sendError(transport, HTTPRequest(url: server.url("/echo"))))
            guard case .caBundleUnreadable = error else {
                Issue.record("got \(error)")
                return
            }
        }
    }
}
