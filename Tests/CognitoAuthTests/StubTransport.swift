import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport

/// A transport that answers from a closure and records every request: for unit tests of what the client sends
/// and how it reads answers, with no network. GETs of the JWKS URL get `jwks`.
final class StubTransport: HTTPTransport {
    typealias Handler = @Sendable (_ operation: String, _ body: [String: Any]) -> HTTPResponse

    static let jwksURL = "https://stub.test/jwks.json"
    private let jwks: Data
    private let handler: Handler
    private let recorded = Locked<[HTTPRequest]>([])

    init(jwks: Data, handler: @escaping Handler) {
        self.jwks = jwks
        self.handler = handler
    }

    /// Cognito calls so far (JWKS fetches left out).
    var requests: [HTTPRequest] { recorded.withLock { $0 }.filter { $0.url != Self.jwksURL } }

    /// The JSON bodies of the calls of one operation, in order.
    func bodies(of operation: String, service: String = "AWSCognitoIdentityProviderService") -> [[String: Any]] {
        requests.filter { $0.headerValue("X-Amz-Target") == "\(service).\(operation)" }.map(\.jsonBody)
    }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        if request.url == Self.jwksURL { return HTTPResponse(status: 200, headers: [], body: Array(jwks)) }
        let target = request.headerValue("X-Amz-Target") ?? ""
        return handler(String(target.split(separator: ".").last ?? ""), request.jsonBody)
    }

    static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/x-amz-json-1.1")],
            body: Array(try! JSONSerialization.data(withJSONObject: object)))
    }

    static func error(_ type: String, message: String, status: Int = 400) -> HTTPResponse {
        json(["__type": type, "message": message], status: status)
    }
}

extension HTTPRequest {
    func headerValue(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var jsonBody: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}
