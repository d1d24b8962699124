import HTTPTransport

extension RetryingSender {
    /// A call to one of the OAuth endpoints, its errors read as RFC 6749 section 5.2 describes them. The request's
    /// secrets (its body's and its credential headers') are redacted from the server's `error_description`, which
    /// may echo a code or token.
    func send(_ request: HTTPRequest, _ operation: OAuthOperation) async throws(OAuthError) -> HTTPResponse {
        let redactor = request.redactor
        return try await send(request, operation: operation.rawValue) {
            OAuthErrorResponse.error(for: $0, operation: operation, redactor: redactor)
        }
    }
}
