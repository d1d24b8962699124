import FoundationEssentials
import HTTPTransport
import NetworkHosts

/// Reads a non-2xx answer: Cognito's `{"__type": "...", "message": "..."}` (the type may carry a `prefix#`, and
/// may instead come in the X-Amzn-ErrorType header as `Type:uri`), or anything else a proxy or server sends.
enum CognitoErrorResponse {
    /// - Parameter redactor: the request's; its secrets are blanked out of Cognito's message in every form
    ///   (emulators echo tokens and hashes in their messages).
    static func error(for response: HTTPResponse, redactor: SecretRedactor) -> CognitoError {
        let body = try? JSONDecoder().decode(Body.self, from: Data(response.body))
        let headerType = response.header("X-Amzn-ErrorType").map { String($0.prefix { $0 != ":" }) }
        guard let rawType = body?.type ?? headerType, !rawType.isEmpty else {
            if response.status == 429 { return .tooManyRequests(message: "") }
            return response.status >= 500 ? .serverError(status: response.status) : .unexpectedStatus(response.status)
        }
        let type = ServerText.escaped(rawType.split(separator: "#").last.map(String.init) ?? rawType, limit: 100)
        let message = shown(body?.message ?? "", redactor: redactor)
        return error(type: type, status: response.status, message: message)
    }

    static func error(type: String, status: Int, message: String) -> CognitoError {
        switch type {
        case "NotAuthorizedException": .notAuthorized(message: message)
        case "UserNotFoundException": .userNotFound(message: message)
        case "UserNotConfirmedException": .userNotConfirmed(message: message)
        case "PasswordResetRequiredException": .passwordResetRequired(message: message)
        case "TooManyRequestsException": .tooManyRequests(message: message)
        case "LimitExceededException": .limitExceeded(message: message)
        case "InvalidParameterException": .invalidParameter(message: message)
        case "InvalidPasswordException": .invalidPassword(message: message)
        case "PasswordHistoryPolicyViolationException": .passwordHistoryPolicyViolation(message: message)
        case "CodeMismatchException": .codeMismatch(message: message)
        case "ExpiredCodeException": .expiredCode(message: message)
        case "TooManyFailedAttemptsException": .tooManyFailedAttempts(message: message)
        case "CodeDeliveryFailureException": .codeDeliveryFailure(message: message)
        case "UsernameExistsException": .usernameExists(message: message)
        case "AliasExistsException": .aliasExists(message: message)
        case "ResourceNotFoundException": .resourceNotFound(message: message)
        case "InvalidUserPoolConfigurationException": .invalidUserPoolConfiguration(message: message)
        case "ForbiddenException": .forbidden(message: message)
        case "RefreshTokenReuseException": .refreshTokenReuse(message: message)
        case "UserLambdaValidationException": .userLambdaValidation(message: message)
        case "UnexpectedLambdaException": .unexpectedLambda(message: message)
        case "InvalidLambdaResponseException": .invalidLambdaResponse(message: message)
        case "InternalErrorException": .internalError(message: message)
        case "EnableSoftwareTokenMFAException": .enableSoftwareTokenMFA(message: message)
        case "SoftwareTokenMFANotFoundException": .softwareTokenMFANotFound(message: message)
        case "MFAMethodNotFoundException": .mfaMethodNotFound(message: message)
        case "UnsupportedOperationException": .unsupportedOperation(message: message)
        case "UnsupportedTokenTypeException": .unsupportedTokenType(message: message)
        case "InvalidIdentityPoolConfigurationException": .invalidIdentityPoolConfiguration(message: message)
        case "ExternalServiceException": .externalService(message: message)
        default: .unknownService(type: type, status: status, message: message)
        }
    }

    /// The server's message as it may be shown: secrets blanked out in every form, then control characters
    /// escaped and the length bounded (after, so a cut never leaves part of a secret unrecognized).
    static func shown(_ message: String, redactor: SecretRedactor) -> String {
        ServerText.escaped(redactor.redact(message))
    }

    private struct Body: Decodable {
        let type: String?
        let message: String?

        enum CodingKeys: String, CodingKey {
            case type = "__type"
            case message
            case capitalizedMessage = "Message"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try? container.decode(String.self, forKey: .type)
            message =
                (try? container.decode(String.self, forKey: .message))
                ?? (try? container.decode(String.self, forKey: .capitalizedMessage))
        }
    }
}
