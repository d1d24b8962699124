import AuthCrypto
import Foundation
import HTTPTransport
import NetworkHosts
import TestSupport
import Testing

@testable import CognitoAuth

/// How non-2xx answers become `CognitoError`s, which ones are retried, and that descriptions stay free of secrets.
@Suite struct ErrorMappingTests {
    static let password = "Sup3r-Secret-Pa55!"

    /// A client whose every call gets `response`; counts the attempts.
    func failingCall(_ response: @escaping @Sendable () -> HTTPResponse) async -> (CognitoError?, Int) {
        let transport = StubTransport(jwks: Data()) { _, _ in response() }
        let client = try! CognitoClient.forTests(
            poolId: "us-east-1_Errors1", clientId: "client", endpoint: "https://stub.test/",
            jwksURL: StubTransport.jwksURL, transport: transport)
        do {
            _ = try await client.signIn(
                username: "alice", password: SecretBytes(utf8: Self.password), flow: .userPassword)
            return (nil, transport.requests.count)
        } catch {
            return (error, transport.requests.count)
        }
    }

    static let serviceTypes: [(String, CognitoError)] = [
        ("NotAuthorizedException", .notAuthorized(message: "m")),
        ("UserNotFoundException", .userNotFound(message: "m")),
        ("UserNotConfirmedException", .userNotConfirmed(message: "m")),
        ("PasswordResetRequiredException", .passwordResetRequired(message: "m")),
        ("LimitExceededException", .limitExceeded(message: "m")),
        ("InvalidParameterException", .invalidParameter(message: "m")),
        ("InvalidPasswordException", .invalidPassword(message: "m")),
        ("CodeMismatchException", .codeMismatch(message: "m")),
        ("ExpiredCodeException", .expiredCode(message: "m")),
        ("TooManyFailedAttemptsException", .tooManyFailedAttempts(message: "m")),
        ("ResourceNotFoundException", .resourceNotFound(message: "m")),
        ("InvalidUserPoolConfigurationException", .invalidUserPoolConfiguration(message: "m")),
        ("ForbiddenException", .forbidden(message: "m")),
        ("RefreshTokenReuseException", .refreshTokenReuse(message: "m")),
        ("UserLambdaValidationException", .userLambdaValidation(message: "m")),
        ("UnexpectedLambdaException", .unexpectedLambda(message: "m")),
        ("InvalidLambdaResponseException", .invalidLambdaResponse(message: "m")),
        ("UsernameExistsException", .usernameExists(message: "m")),
        ("AliasExistsException", .aliasExists(message: "m")),
        ("CodeDeliveryFailureException", .codeDeliveryFailure(message: "m")),
        ("EnableSoftwareTokenMFAException", .enableSoftwareTokenMFA(message: "m")),
        ("SoftwareTokenMFANotFoundException", .softwareTokenMFANotFound(message: "m")),
        ("PasswordHistoryPolicyViolationException", .passwordHistoryPolicyViolation(message: "m")),
        ("UnsupportedTokenTypeException", .unsupportedTokenType(message: "m")),
        ("SomethingNewException", .unknownService(type: "SomethingNewException", status: 400, message: "m")),
    ]

    @Test(arguments: serviceTypes)
    func serviceErrorTypesMapToTheirCases(type: String, expected: CognitoError) async {
        let (error, attempts) = await failingCall { StubTransport.error("com.amazonaws.cognito#\(type)", message: "m") }
        #expect(error == expected)
        #expect(attempts == 1, "no authentication or input error is retried")
        #expect(error?.isRetryable == false)
        #expect(error?.requiresSignIn == (type == "RefreshTokenReuseException"))
        #expect(error?.description.hasSuffix("(Cognito: m)") == true)
    }

    @Test func typeFromTheHeaderWhenTheBodyHasNone() async {
        let (error, _) = await failingCall {
            HTTPResponse(
                status: 400,
                headers: [
                    HTTPHeader(name: "x-amzn-ErrorType", value: "UserNotFoundException:http://internal.amazon.com/")
                ],
                body: Array(#"{"message":"User does not exist."}"#.utf8))
        }
        #expect(error == .userNotFound(message: "User does not exist."))
    }

    /// Retryable answers are tried `maximumAttempts` (4) times, then the last failure comes back as it is.
    @Test(arguments: [
        (
            HTTPResponse(status: 500, headers: [], body: Array("<html><body>Internal Server Error</body></html>".utf8)),
            CognitoError.serverError(status: 500)
        ),
        (HTTPResponse(status: 503, headers: [], body: []), CognitoError.serverError(status: 503)),
        (
            HTTPResponse(status: 429, headers: [], body: Array("Too Many Requests".utf8)),
            CognitoError.tooManyRequests(message: "")
        ),
        (
            StubTransport.error("TooManyRequestsException", message: "Rate exceeded"),
            CognitoError.tooManyRequests(message: "Rate exceeded")
        ),
        (
            StubTransport.error("InternalErrorException", message: "x", status: 500),
            CognitoError.internalError(message: "x")
        ),
        (
            StubTransport.error("ServiceUnavailable", message: "x", status: 503),
            CognitoError.unknownService(type: "ServiceUnavailable", status: 503, message: "x")
        ),
    ])
    func retryableAnswersAreRetried(response: HTTPResponse, expected: CognitoError) async {
        let (error, attempts) = await failingCall { response }
        #expect(error == expected)
        #expect(error?.isRetryable == true && error?.requiresSignIn == false)
        #expect(attempts == 4)
    }

    @Test func otherAnswersAreReadWithoutRetrying() async {
        let (notCognito, attempts) = await failingCall {
            HTTPResponse(status: 404, headers: [], body: Array("<html>Not Found</html>".utf8))
        }
        #expect(notCognito == .unexpectedStatus(404))
        #expect(attempts == 1)
        let (garbled, garbledAttempts) = await failingCall {
            HTTPResponse(status: 200, headers: [], body: Array(#"{"AuthenticationResult": {"#.utf8))
        }
        #expect(
            garbled
                == .invalidResponse(
                    operation: "InitiateAuth", reason: "the body is not the JSON this operation returns"))
        #expect(garbledAttempts == 1)
    }

    /// moto and other emulators echo what they were sent; every secret of the request is blanked out.
    @Test func secretsOfTheRequestAreBlankedOutOfMessages() async {
        let (error, _) = await failingCall {
            StubTransport.error("NotAuthorizedException", message: "Incorrect password \(Self.password) for alice")
        }
        #expect(error == .notAuthorized(message: "Incorrect password <redacted> for alice"))
        expectNoSecrets(in: error?.description ?? "", [Self.password])
    }

    @Test func everyCaseSaysWhatToDoWithoutSecrets() {
        let cases: [CognitoError] =
            Self.serviceTypes.map(\.1) + [
                .refreshTokenRejected(message: ""), .network(.timedOut), .network(.cannotConnect("refused")),
                .serverError(status: 502),
                .unexpectedStatus(403), .invalidResponse(operation: "GetUser", reason: "r"),
                .deadlineExceeded(operation: "InitiateAuth", attempts: 3, lastError: .serverError(status: 500)),
                .invalidSRPChallenge("u is zero"), .tokenRejected(.badSignature), .challengeExpired(.smsMFA),
                .answerDoesNotFitChallenge(.mfaSetup), .invalidConfiguration("x"),
            ]
        for error in cases {
            #expect(error.description.count > 20)
            expectNoSecrets(in: error.description, [Self.password])
        }
        #expect(CognitoError.network(.timedOut).isRetryable)
        #expect(!CognitoError.network(.tlsFailure("x")).isRetryable)
        #expect(CognitoError.tokenRejected(.keySetUnavailable("down")).isRetryable)
        #expect(!CognitoError.notAuthorized(message: "").requiresSignIn, "a wrong password is not a lost session")
    }

    @Test func backoffDoublesWithinBoundsAndJitter() {
        let policy = RetryPolicy(
            maximumAttempts: 6, initialBackoff: .milliseconds(100), maximumBackoff: .milliseconds(500))
        #expect(policy.backoff(beforeRetry: 1, jitter: 0) == .milliseconds(50))
        #expect(policy.backoff(beforeRetry: 1, jitter: 1) == .milliseconds(100))
        #expect(policy.backoff(beforeRetry: 2, jitter: 1) == .milliseconds(200))
        #expect(policy.backoff(beforeRetry: 3, jitter: 0.5) == .milliseconds(300))
        #expect(policy.backoff(beforeRetry: 9, jitter: 1) == .milliseconds(500))
        #expect(RetryPolicy(maximumAttempts: 0).maximumAttempts == 1)
    }

    @Test func configurationIsChecked() {
        let transport = StubTransport(jwks: Data()) { _, _ in StubTransport.json([:]) }
        #expect(throws: CognitoError.self) {
            try CognitoClient.forTests(
                poolId: "nounderscore", clientId: "c", endpoint: "http://x/", jwksURL: "", transport: transport)
        }
        #expect(throws: CognitoError.self) {
            try CognitoClient.forTests(
                poolId: "us-east-1_a", clientId: "c", endpoint: "ftp://x/", jwksURL: "", transport: transport)
        }
        // Plain http only to a loopback address, whatever the configuration file said: passwords go to the endpoint.
        for endpoint in [
            "http://cognito.example.com/", "http://127.attacker.example/", "http://127.0.0.1.nip.io:5000/",
        ] {
            #expect(throws: CognitoError.invalidConfiguration("the endpoint \(endpoint): \(ServiceURL.rule)")) {
                try CognitoClient.forTests(
                    poolId: "us-east-1_a", clientId: "c", endpoint: endpoint, jwksURL: "", transport: transport)
            }
        }
        #expect(throws: Never.self) {
            try CognitoClient.forTests(
                poolId: "us-east-1_a", clientId: "c", endpoint: "http://127.0.0.1:5000/", jwksURL: "",
                transport: transport)
        }
        #expect(
            CognitoConfiguration(region: "eu-west-1", userPoolId: "eu-west-1_a", clientId: "c").endpoint
                == "https://cognito-idp.eu-west-1.amazonaws.com/")
    }
}
