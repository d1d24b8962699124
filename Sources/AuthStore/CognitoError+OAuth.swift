import CognitoAuth

extension CognitoError {
    /// An OAuth client's failure in the reasons the store classifies, for a `SessionAuthority` that refreshes or
    /// revokes a browser session at the OAuth endpoints. The store's rule holds: only `invalid_grant` on refresh
    /// ends the session (`requiresSignIn`); network trouble, 5xx, throttling and `temporarily_unavailable` stay
    /// retryable, whatever status the server chose.
    public init(_ error: OAuthError) {
        switch error {
        case .refused(let code, let description, let status, let operation):
            let message = description.isEmpty ? code.explanation : "\(code.explanation) (\(description))"
            if operation == .clientCredentials, !code.isTransient {
                self = .clientCredentialsRefused(code, message: description)
            } else if error.requiresSignIn {
                self = .refreshTokenRejected(message: message)
            } else if code == .unsupportedTokenType {
                self = .unsupportedTokenType(message: message)
            } else {
                self = .unknownService(
                    type: code.code, status: code.isTransient ? max(status, 503) : status, message: message)
            }
        case .throttled: self = .tooManyRequests(message: "")
        case .serverError(let status): self = .serverError(status: status)
        case .unexpectedStatus(let status): self = .unexpectedStatus(status)
        case .network(let transport): self = .network(transport)
        case .invalidResponse(let operation, let reason): self = .invalidResponse(operation: operation, reason: reason)
        case .deadlineExceeded(let operation, let attempts, let last):
            self = .deadlineExceeded(operation: operation, attempts: attempts, lastError: last.map(CognitoError.init))
        case .tokenRejected(let reason): self = .tokenRejected(reason)
        case .invalidConfiguration(let reason): self = .invalidConfiguration(reason)
        case .missingClientSecret: self = .missingClientSecret
        }
    }
}
