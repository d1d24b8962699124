import FoundationEssentials
import HTTPTransport

/// Reads a non-2xx answer of an authorization server: the JSON `{"error": ..., "error_description": ...}` of
/// RFC 6749 section 5.2 (and RFC 7009), or a bearer-token challenge in `WWW-Authenticate` (RFC 6750 section 3, as
/// userinfo answers), or anything else a proxy sends.
enum OAuthErrorResponse {
    static func error(for response: HTTPResponse, operation: OAuthOperation, redactor: SecretRedactor) -> OAuthError {
        let body = try? JSONDecoder().decode(Body.self, from: Data(response.body))
        guard let code = body?.error ?? response.header("WWW-Authenticate").flatMap(bearerChallengeError) else {
            if response.status == 429 { return .throttled }
            return response.status >= 500 ? .serverError(status: response.status) : .unexpectedStatus(response.status)
        }
        let description = CognitoErrorResponse.shown(body?.errorDescription ?? "", redactor: redactor)
        return .refused(OAuthErrorCode(code), description: description, status: response.status, operation: operation)
    }

    /// `error="invalid_token"` out of `Bearer realm="...", error="invalid_token", error_description="..."`.
    private static func bearerChallengeError(_ header: String) -> String? {
        guard header.lowercased().hasPrefix("bearer"), let start = header.firstRange(of: "error=\"") else { return nil }
        let value = header[start.upperBound...].prefix { $0 != "\"" }
        return value.isEmpty ? nil : String(value)
    }

    private struct Body: Decodable {
        let error: String?
        let errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }
}
