import FoundationEssentials
import HTTPTransport

/// One user-pool API call as JSON 1.1 over the transport: `POST` with the operation in X-Amz-Target, errors read
/// into `CognitoError`, retried as `RetryingSender` does.
struct CognitoAPI: Sendable {
    let endpoint: String
    let sender: RetryingSender

    init(endpoint: String, transport: any HTTPTransport, deadline: Duration, retryPolicy: RetryPolicy,
         jitter: @escaping @Sendable () -> Double) {
        self.endpoint = endpoint
        sender = RetryingSender(transport: transport, deadline: deadline, retryPolicy: retryPolicy, jitter: jitter)
    }

    func call<Response: Decodable>(
        _ operation: CognitoOperation, _ body: [String: RequestValue], as _: Response.Type = Response.self
    ) async throws(CognitoError) -> Response {
        let payload = RequestValue.object(body)
        let encoded: [UInt8]
        do {
            encoded = Array(try JSONEncoder().encode(payload))
        } catch {
            throw .invalidConfiguration("the \(operation.rawValue) request could not be encoded")
        }
        let secrets = payload.secrets
        let request = HTTPRequest(method: "POST", url: endpoint, headers: [
            HTTPHeader(name: "Content-Type", value: "application/x-amz-json-1.1"),
            HTTPHeader(name: "X-Amz-Target", value: operation.target),
        ], body: encoded)
        let response = try await sender.send(request, operation: operation.rawValue) {
            CognitoErrorResponse.error(for: $0, redacting: secrets)
        }
        return try decode(response.body, operation)
    }

    private func decode<Response: Decodable>(_ body: [UInt8], _ operation: CognitoOperation) throws(CognitoError) -> Response {
        do {
            return try JSONDecoder().decode(Response.self, from: body.isEmpty ? Data("{}".utf8) : Data(body))
        } catch {
            throw .invalidResponse(operation: operation.rawValue, reason: "the body is not the JSON this operation returns")
        }
    }
}
