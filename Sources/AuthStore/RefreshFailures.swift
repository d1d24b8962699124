import CognitoAuth

/// Refreshes that failed in a row for a passing reason (the network, a timeout, throttling): the store waits
/// `RefreshPolicy.retryDelay` after the last before trying again, and says why when a caller cannot be served.
public struct RefreshFailures: Sendable, Equatable {
    public let consecutive: Int
    public let lastFailedAt: Double
    public let lastError: CognitoError

    /// When the throttle lets the next attempt start.
    func nextAttemptAt(_ policy: RefreshPolicy) -> Double {
        lastFailedAt + policy.retryDelay(afterFailures: consecutive)
    }
}
