import Foundation
import HTTPTransport
import Testing

extension HTTPTransportTests {
    @Suite struct RequestResponse {
        @Test func getSendsHeadersAndUserAgent() async throws {
            let server = try await TestHTTPServer.start()
            let transport = CurlTransport(configuration: .init(userAgent: "authvault/0.1.0"))
            let response = try await transport.send(
                HTTPRequest(
                    url: server.url("/echo?x=1"),
                    headers: [HTTPHeader(name: "X-Amz-Target", value: "Service.Operation")]))
            #expect(response.status == 200)
            let echo = try Echo(response)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo?x=1")
            #expect(echo.header("x-amz-target") == "Service.Operation")
            #expect(echo.header("User-Agent") == "authvault/0.1.0")
            #expect(echo.bodyBytes.isEmpty)
        }

        @Test func postRoundTripsBinaryBodyAndContentType() async throws {
            let server = try await TestHTTPServer.start()
            let body = (0...255).map { UInt8($0) } + Array("{\"a\":1}".utf8)
            let response = try await CurlTransport().send(
                HTTPRequest(
                    method: "POST", url: server.url("/echo"),
                    headers: [HTTPHeader(name: "Content-Type", value: "application/x-amz-json-1.1")], body: body))
            let echo = try Echo(response)
            #expect(echo.method == "POST")
            #expect(echo.bodyBytes == body)
            #expect(echo.header("Content-Type") == "application/x-amz-json-1.1")
            #expect(echo.header("Content-Length") == "\(body.count)")
            #expect(echo.header("Expect") == nil)
        }

        @Test func postWithoutContentTypeGetsNoneAdded() async throws {
            let server = try await TestHTTPServer.start()
            let echo = try Echo(try await CurlTransport().send(HTTPRequest(method: "POST", url: server.url("/echo"))))
            #expect(echo.method == "POST")
            #expect(echo.header("Content-Type") == nil)
            #expect(echo.header("Content-Length") == "0")
        }

        @Test(arguments: ["PUT", "PATCH", "DELETE"])
        func otherMethodsCarryTheirBody(method: String) async throws {
            let server = try await TestHTTPServer.start()
            let body = Array("payload for \(method)".utf8)
            let echo = try Echo(
                try await CurlTransport().send(HTTPRequest(method: method, url: server.url("/echo"), body: body)))
            #expect(echo.method == method)
            #expect(echo.bodyBytes == body)
        }

        @Test(arguments: [400, 404, 500, 503])
        func errorStatusesComeBackWithTheirBodies(status: Int) async throws {
            let server = try await TestHTTPServer.start()
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/status/\(status)")))
            #expect(response.status == status)
            #expect(response.body == Array("status \(status)".utf8))
            #expect(response.header("content-type") == "text/plain")
        }

        @Test func responseHeadersAreFoundCaseInsensitively() async throws {
            let server = try await TestHTTPServer.start()
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/headers")))
            #expect(response.header("X-Custom-Header") == "Mixed-Case-Value")
            #expect(response.header("x-custom-header") == "Mixed-Case-Value")
            #expect(response.header("X-CUSTOM-HEADER") == "Mixed-Case-Value")
            #expect(response.header("set-cookie") == "a=1")
            #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
            #expect(response.header("X-Absent") == nil)
        }

        @Test func redirectsAreReturnedNotFollowed() async throws {
            let server = try await TestHTTPServer.start()
            let response = try await CurlTransport().send(HTTPRequest(url: server.url("/redirect")))
            #expect(response.status == 302)
            #expect(response.header("Location") == "/echo")
        }

        @Test func descriptionsShowNoSecrets() {
            let request = HTTPRequest(
                method: "POST", url: "https://user:hunter2@cognito.example/oauth2/token?code=SECRETCODE#frag",
                headers: [HTTPHeader(name: "Authorization", value: "Basic SECRETBASIC")],
                body: Array("refresh_token=SECRETREFRESH".utf8))
            #expect(request.description == "POST https://cognito.example/oauth2/token")
            var dumped = ""
            dump(request, to: &dumped)
            let response = HTTPResponse(
                status: 200, headers: [HTTPHeader(name: "Set-Cookie", value: "SECRETCOOKIE")],
                body: Array("{\"AccessToken\":\"SECRETTOKEN\"}".utf8))
            dump(response, to: &dumped)
            let printed = [
                request.description, String(reflecting: request), dumped, response.description,
                "\(response.headers)",
            ]
            for text in printed {
                for secret in ["hunter2", "SECRETCODE", "SECRETBASIC", "SECRETREFRESH", "SECRETCOOKIE", "SECRETTOKEN"] {
                    #expect(!text.contains(secret), "\(secret) leaked")
                }
            }
            #expect(response.description == "HTTP 200 (29-byte body)")
        }
    }
}
