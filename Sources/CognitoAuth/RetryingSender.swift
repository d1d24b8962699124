import HTTPTransport

/// One HTTP call with Cognito's retry rules, for the user-pool API and the OAuth endpoints alike: a non-2xx answer
/// read into the client's error type (`CognitoError`, `OAuthError`) by the caller's reader, retryable failures (network, time-outs, 5xx, throttling)
/// tried again with jittered exponential back-off, all within the operation's deadline.
struct RetryingSender: Sendable {
    let transport: any HTTPTransport
    let deadline: Duration
    let retryPolicy: RetryPolicy
    /// A value in 0...1 for each back-off.
    let jitter: @Sendable () -> Double

    /// The 2xx response to `request` (its `timeout` is set here, per attempt).
    /// - Parameters:
    ///   - operation: how errors and deadlines name the call.
    ///   - readFailure: the error a non-2xx response means.
    func send<Failure: RetryableFailure>(
        _ request: HTTPRequest, operation: String, readFailure: (HTTPResponse) -> Failure
    ) async throws(Failure) -> HTTPResponse {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var attempts = 0
        while true {
            var attempt = request
            attempt.operation = operation
            attempt.timeout = min(end - clock.now, retryPolicy.attemptTimeout)
            attempts += 1

            let failure: Failure
            do {
                let response = try await transport.send(attempt)
                if (200..<300).contains(response.status) { return response }
                failure = readFailure(response)
            } catch {
                failure = Failure.network(error)
            }

            guard failure.isRetryable else { throw failure }
            guard clock.now < end else {
                throw Failure.deadlineExceeded(operation: operation, attempts: attempts, lastError: failure)
            }
            guard attempts < retryPolicy.maximumAttempts else { throw failure }
            let pause = retryPolicy.backoff(beforeRetry: attempts, jitter: jitter())
            guard clock.now + pause < end else {
                throw Failure.deadlineExceeded(operation: operation, attempts: attempts, lastError: failure)
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                throw Failure.network(.cancelled)
            }
        }
    }
}
