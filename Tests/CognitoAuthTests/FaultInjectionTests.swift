import AuthCrypto
import Foundation
import HTTPTransport
import TestSupport
import Testing

@testable import CognitoAuth

/// The client against moto through the tests' fault proxy: transient faults are retried (the proxy counts the
/// attempts) and then succeed or come back as retryable errors that never end the session; authentication
/// errors and unreadable answers are not retried; a stall runs into the deadline.
@Suite struct FaultInjectionTests {
    static let password = "Faul7-Tolerant!"

    struct Setup {
        let proxy: FaultProxy
        let fixture: MotoFixture
        var client: CognitoClient { fixture.client }

        func signIn() async throws(CognitoError) -> SignInStep {
            try await client.signIn(
                username: "kim", password: SecretBytes(utf8: FaultInjectionTests.password), flow: .userPassword)
        }
    }

    /// The default deadline is generous: on a loaded 2-core machine four attempts through the proxy can take seconds,
    /// and these tests are about how many attempts are made, not how fast.
    func setup(withSecret: Bool = false, deadline: Duration = .seconds(40), attemptTimeout: Duration = .seconds(10))
        async throws -> Setup
    {
        let moto = try await MotoServer.shared()
        let proxy = try await FaultProxy.start(upstream: moto.baseURL)
        let policy = RetryPolicy(
            maximumAttempts: 4, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(100),
            attemptTimeout: attemptTimeout)
        let fixture = try await MotoFixture.make(
            withSecret: withSecret, endpoint: proxy.endpoint, deadline: deadline, retryPolicy: policy)
        try await fixture.createUser("kim", password: Self.password, email: "kim@example.com")
        return Setup(proxy: proxy, fixture: fixture)
    }

    /// One transient fault, then the real answer: the sign-in succeeds on the second attempt.
    @Test(arguments: [
        FaultProxy.Fault.htmlPage(status: 500), .htmlPage(status: 502),
        .status(429, body: "Too Many Requests", contentType: "text/plain"),
        .cognitoError("TooManyRequestsException", message: "Rate exceeded"),
        .cognitoError("InternalErrorException", status: 500),
        .reset, .truncate,
    ])
    func transientFaultIsRetriedThenSucceeds(fault: FaultProxy.Fault) async throws {
        let setup = try await setup(withSecret: true)
        try await setup.proxy.inject([fault])
        let step = try await setup.signIn()
        #expect(step.tokens?.identity.username == "kim")
        #expect(try await setup.proxy.attempts(of: "InitiateAuth") == 2)
    }

    @Test func persistentServerErrorsStopAfterTheLastAttempt() async throws {
        let setup = try await setup()
        try await setup.proxy.inject(Array(repeating: .htmlPage(status: 500), count: 10))
        await #expect(throws: CognitoError.serverError(status: 500)) { try await setup.signIn() }
        #expect(try await setup.proxy.attempts(of: "InitiateAuth") == 4)
    }

    @Test func persistentResetsAreANetworkErrorThatIsRetryable() async throws {
        let setup = try await setup()
        try await setup.proxy.inject(Array(repeating: .reset, count: 10))
        do {
            _ = try await setup.signIn()
            Issue.record("resets must fail the call")
        } catch {
            guard case .network(let transportError) = error else { throw error }
            #expect(transportError.isRetryable)
            #expect(error.isRetryable && !error.requiresSignIn)
            expectNoSecrets(in: error.description, [Self.password])
        }
        #expect(try await setup.proxy.attempts(of: "InitiateAuth") == 4)
    }

    /// A well-formed HTTP answer with broken JSON is not a transient fault: read once, reported, not retried.
    @Test func truncatedJSONIsAnInvalidResponse() async throws {
        let setup = try await setup()
        try await setup.proxy.inject([.malformed])
        await #expect(
            throws: CognitoError.invalidResponse(
                operation: "InitiateAuth", reason: "the body is not the JSON this operation returns")
        ) {
            try await setup.signIn()
        }
        #expect(try await setup.proxy.attempts(of: "InitiateAuth") == 1)
    }

    /// Every attempt stalls: the operation ends at its deadline, not later, with a retryable error.
    @Test func stallRunsIntoTheDeadline() async throws {
        let setup = try await setup(deadline: .milliseconds(1200))
        try await setup.proxy.inject(Array(repeating: .stall(seconds: 4), count: 5))
        let started = ContinuousClock.now
        do {
            _ = try await setup.signIn()
            Issue.record("a stalled call must time out")
        } catch {
            guard case .deadlineExceeded(let operation, let attempts, let lastError) = error else { throw error }
            #expect(operation == "InitiateAuth")
            #expect(attempts == 1)
            #expect(lastError == .network(.timedOut))
            #expect(error.isRetryable && !error.requiresSignIn)
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(1100) && elapsed < .milliseconds(2500))
    }

    /// With an attempt time-out below the deadline, a stalled attempt is abandoned and the next one succeeds.
    @Test func stalledAttemptIsAbandonedAndRetried() async throws {
        let setup = try await setup(deadline: .seconds(5), attemptTimeout: .milliseconds(500))
        try await setup.proxy.inject([.stall(seconds: 3)])
        #expect(try await setup.signIn().tokens != nil)
        #expect(try await setup.proxy.attempts(of: "InitiateAuth") == 2)
    }

    /// Authentication errors come back at once, real (moto's) or injected.
    @Test func authenticationErrorsAreNeverRetried() async throws {
        let setup = try await setup(withSecret: true)
        await #expect(throws: CognitoError.notAuthorized(message: "Incorrect username or password.")) {
            try await setup.client.signIn(
                username: "kim", password: SecretBytes(utf8: "Wr0ng-Passw0rd!"), flow: .userPassword)
        }
        try await setup.proxy.inject([
            .cognitoError("NotAuthorizedException", message: "Incorrect username or password.")
        ])
        await #expect(throws: CognitoError.notAuthorized(message: "Incorrect username or password.")) {
            try await setup.signIn()
        }
        try await setup.proxy.inject([.cognitoError("CodeMismatchException"), .cognitoError("UserNotFoundException")])
        await #expect(throws: CognitoError.codeMismatch(message: "injected")) { try await setup.signIn() }
        await #expect(throws: CognitoError.userNotFound(message: "injected")) { try await setup.signIn() }
        #expect(try await setup.proxy.attempts(of: "InitiateAuth") == 4)
    }

    /// Refresh through transient faults keeps the session; only NotAuthorized on refresh ends it, without a retry.
    @Test func refreshSurvivesTransientFaultsAndEndsOnlyOnNotAuthorized() async throws {
        let setup = try await setup(withSecret: true)
        let tokens = try #require(try await setup.signIn().tokens)

        try await setup.proxy.inject([
            .htmlPage(status: 503), .reset, .status(429, body: "", contentType: "text/plain"),
        ])
        let refreshed = try await setup.client.refresh(
            refreshToken: tokens.refreshToken, username: tokens.identity.username)
        #expect(refreshed.refreshToken == tokens.refreshToken)

        try await setup.proxy.inject(Array(repeating: .reset, count: 4))
        do {
            _ = try await setup.client.refresh(refreshToken: tokens.refreshToken, username: tokens.identity.username)
            Issue.record("refresh through resets must fail")
        } catch {
            #expect(error.isRetryable && !error.requiresSignIn, "network trouble never ends the session")
            expectNoSecrets(in: error.description, [tokens.refreshToken.text])
        }

        try await setup.proxy.inject([.cognitoError("NotAuthorizedException", message: "Refresh Token has expired")])
        await #expect(throws: CognitoError.refreshTokenRejected(message: "Refresh Token has expired")) {
            try await setup.client.refresh(refreshToken: tokens.refreshToken, username: tokens.identity.username)
        }
        let refreshAttempts = try await setup.proxy.records().filter { $0.operation == "InitiateAuth" }.count - 1
        #expect(refreshAttempts == 4 + 4 + 1)
    }

    /// Faults on the other operations are handled the same way (GetUser here).
    @Test func accountOperationsRetryToo() async throws {
        let setup = try await setup()
        let tokens = try #require(try await setup.signIn().tokens)
        try await setup.proxy.inject([.htmlPage(status: 500), .truncate])
        let user = try await setup.client.user(accessToken: tokens.accessToken)
        #expect(user.attributes["email"] == "kim@example.com")
        #expect(try await setup.proxy.attempts(of: "GetUser") == 3)
    }
}
