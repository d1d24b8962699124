import HTTPTransport

/// A transport that answers every request with the fuzz input as the body, except the JWKS, which is a fixed key
/// set: the input reaches the response decoders the way a server's answer does.
public struct ReplayTransport: HTTPTransport {
    public let status: Int
    public let body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if request.url.hasSuffix(FuzzFixtures.jwksPath) {
            return HTTPResponse(status: 200, headers: [], body: Array(FuzzFixtures.jwks.utf8))
        }
        return HTTPResponse(
            status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: body)
    }
}
