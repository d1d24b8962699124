import FoundationEssentials
import HTTPTransport

/// One user-pool API call as JSON 1.1 over the transport: `POST` with the operation in X-Amz-Target, errors read
/// into `CognitoError`, retryable failures tried again with jittered exponential back-off, all within the
/// operation's deadline.
struct CognitoAPI: Sendable {
    let endpoint: String
    let transport: any HTTPTransport
    let deadline: Duration
    let retryPolicy: RetryPolicy
    /// A value in 0...1 for each back-off.
    let jitter: @Sendable () -> Double

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
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var attempts = 0
        while true {
            let remaining = end - clock.now
            let request = HTTPRequest(method: "POST", url: endpoint, headers: [
                HTTPHeader(name: "Content-Type", value: "application/x-amz-json-1.1"),
                HTTPHeader(name: "X-Amz-Target", value: operation.target),
            ], body: encoded, timeout: min(remaining, retryPolicy.attemptTimeout))
            attempts += 1

            let failure: CognitoError
            switch await send(request) {
            case .success(let response) where (200..<300).contains(response.status):
                return try decode(response.body, operation)
            case .success(let response):
                failure = CognitoErrorResponse.error(for: response, redacting: secrets)
            case .failure(let error):
                failure = .network(error)
            }

            guard failure.isRetryable else { throw failure }
            guard clock.now < end else { throw .deadlineExceeded(operation: operation.rawValue, attempts: attempts, lastError: failure) }
            guard attempts < retryPolicy.maximumAttempts else { throw failure }
            let pause = retryPolicy.backoff(beforeRetry: attempts, jitter: jitter())
            guard clock.now + pause < end else {
                throw .deadlineExceeded(operation: operation.rawValue, attempts: attempts, lastError: failure)
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                throw .network(.cancelled)
            }
        }
    }

    private func send(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPError> {
        do {
            return .success(try await transport.send(request))
        } catch {
            return .failure(error)
        }
    }

    private func decode<Response: Decodable>(_ body: [UInt8], _ operation: CognitoOperation) throws(CognitoError) -> Response {
        do {
            return try JSONDecoder().decode(Response.self, from: body.isEmpty ? Data("{}".utf8) : Data(body))
        } catch {
            throw .invalidResponse(operation: operation.rawValue, reason: "the body is not the JSON this operation returns")
        }
    }
}
