/// How often, and how far apart, a retryable failure (network, time-out, 5xx, throttling) is tried again.
/// The operation deadline bounds the whole thing: no attempt starts, and no back-off sleeps, past it.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first one included; 1 turns retries off.
    public var maximumAttempts: Int
    /// The back-off before the first retry; it doubles for each further one, up to `maximumBackoff`.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    /// The longest one attempt may take, so a stalled connection leaves time for another try.
    public var attemptTimeout: Duration

    public init(
        maximumAttempts: Int = 4,
        initialBackoff: Duration = .milliseconds(250),
        maximumBackoff: Duration = .seconds(4),
        attemptTimeout: Duration = .seconds(10)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.attemptTimeout = attemptTimeout
    }

    /// The pause before retry number `retry` (1 for the first retry): half the exponential step plus a random
    /// part of the other half ("equal jitter"), so clients that failed together do not come back together.
    /// - Parameter jitter: a value in 0...1.
    public func backoff(beforeRetry retry: Int, jitter: Double) -> Duration {
        let doublings = min(max(retry - 1, 0), 30)
        let step = min(initialBackoff * (1 << doublings), maximumBackoff)
        return step / 2 + step / 2 * min(max(jitter, 0), 1)
    }
}
