import BoundedJSON
import FoundationEssentials
import HTTPTransport

/// An operation of one of Cognito's JSON 1.1 services (user pools, identity pools), named by its X-Amz-Target.
protocol CognitoServiceOperation: Sendable {
    var rawValue: String { get }
    /// The `X-Amz-Target` header value: the service's prefix and the operation's name.
    var target: String { get }
}

extension CognitoOperation: CognitoServiceOperation {}

/// One Cognito API call as JSON 1.1 over the transport: `POST` with the operation in X-Amz-Target, errors read
/// into `CognitoError`, retried as `RetryingSender` does. The user-pool and identity-pool clients both use it.
struct CognitoAPI: Sendable {
    let endpoint: String
    let sender: RetryingSender

    init(
        endpoint: String, transport: any HTTPTransport, deadline: Duration, retryPolicy: RetryPolicy,
        jitter: @escaping @Sendable () -> Double
    ) {
        self.endpoint = endpoint
        sender = RetryingSender(transport: transport, deadline: deadline, retryPolicy: retryPolicy, jitter: jitter)
    }

    func call<Response: Decodable>(
        _ operation: CognitoOperation, _ body: [String: JSONValue], as _: Response.Type = Response.self
    ) async throws(CognitoError) -> Response {
        try await perform(operation, body)
    }

    func call<Response: Decodable>(
        _ operation: IdentityPoolOperation, _ body: [String: JSONValue], as _: Response.Type = Response.self
    ) async throws(CognitoError) -> Response {
        try await perform(operation, body)
    }

    private func perform<Response: Decodable>(
        _ operation: some CognitoServiceOperation, _ body: [String: JSONValue]
    ) async throws(CognitoError) -> Response {
        let payload = JSONValue.object(body)
        let request = HTTPRequest(
            method: "POST", url: endpoint,
            headers: [
                HTTPHeader(name: "Content-Type", value: "application/x-amz-json-1.1"),
                HTTPHeader(name: "X-Amz-Target", value: operation.target),
            ], body: payload.bytes, secrets: payload.secrets.map(\.utf8String))
        let redactor = request.redactor
        let response = try await sender.send(request, operation: operation.rawValue) {
            CognitoErrorResponse.error(for: $0, redactor: redactor)
        }
        return try decode(response.body, operation)
    }

    private func decode<Response: Decodable>(_ body: [UInt8], _ operation: some CognitoServiceOperation)
        throws(CognitoError) -> Response
    {
        do {
            return try JSONDecoder().decode(Response.self, from: body.isEmpty ? Data("{}".utf8) : Data(body))
        } catch {
            throw .invalidResponse(
                operation: operation.rawValue, reason: "the body is not the JSON this operation returns")
        }
    }
}
