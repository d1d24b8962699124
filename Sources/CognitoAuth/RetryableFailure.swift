import HTTPTransport

/// What `RetryingSender` needs of a client's error type: whether it may pass by itself, and how to say that the
/// network failed or the deadline passed. `CognitoError` and `OAuthError` are the two.
protocol RetryableFailure: Error {
    var isRetryable: Bool { get }
    static func network(_ error: HTTPError) -> Self
    static func deadlineExceeded(operation: String, attempts: Int, lastError: Self?) -> Self
}

extension CognitoError: RetryableFailure {}
extension OAuthError: RetryableFailure {}
