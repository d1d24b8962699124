import HTTPTransport

extension RetryingSender {
    /// A call to one of the OAuth endpoints, its errors read as RFC 6749 section 5.2 describes them.
    /// - Parameter secrets: what the request's body carries that must not come back in an error (the server's
    ///   `error_description` may echo a code or token); its credential headers are redacted whatever is given.
    func send(_ request: HTTPRequest, _ operation: OAuthOperation, secrets: [String] = []) async throws(OAuthError) -> HTTPResponse {
        let secrets = secrets + request.credentials
        return try await send(request, operation: operation.rawValue) {
            OAuthErrorResponse.error(for: $0, operation: operation, redacting: secrets)
        }
    }
}
