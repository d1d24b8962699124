/// When a token is refreshed ahead of its expiry.
///
/// - advisory window: refresh in the background, keep serving the current token if that fails;
/// - mandatory window (or expired): callers wait for the refresh.
///
/// Each window is the smaller of a fixed span and a fraction of the token's lifetime, so a fresh token is never
/// in either, whatever its lifetime.
public struct RefreshPolicy: Sendable, Equatable {
    public var advisorySeconds: Double
    public var advisoryFraction: Double
    public var mandatorySeconds: Double
    public var mandatoryFraction: Double
    /// After a failed refresh, the next attempt waits this long, doubling up to `maximumRetryDelay`.
    public var initialRetryDelay: Double
    public var maximumRetryDelay: Double

    public init(
        advisorySeconds: Double = 300, advisoryFraction: Double = 0.2, mandatorySeconds: Double = 60,
        mandatoryFraction: Double = 0.1, initialRetryDelay: Double = 1, maximumRetryDelay: Double = 30
    ) {
        self.advisorySeconds = advisorySeconds
        self.advisoryFraction = advisoryFraction
        self.mandatorySeconds = mandatorySeconds
        self.mandatoryFraction = mandatoryFraction
        self.initialRetryDelay = initialRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
    }

    public enum Window: Sendable, Equatable {
        case fresh
        case advisory
        case mandatory
    }

    /// - Parameters:
    ///   - issuedAt: when the token was issued (its `iat`), Unix seconds.
    ///   - expiresAt: its `exp`.
    public func window(issuedAt: Double, expiresAt: Double, now: Double) -> Window {
        let lifetime = max(0, expiresAt - issuedAt)
        let left = expiresAt - now
        if left <= min(mandatorySeconds, lifetime * mandatoryFraction) { return .mandatory }
        if left <= min(advisorySeconds, lifetime * advisoryFraction) { return .advisory }
        return .fresh
    }

    /// When a token issued at `issuedAt` and expiring at `expiresAt` stops being fresh: `window` answers `.fresh`
    /// exactly while `now` is before it.
    public func freshUntil(issuedAt: Double, expiresAt: Double) -> Double {
        let lifetime = max(0, expiresAt - issuedAt)
        return expiresAt
            - max(
                min(mandatorySeconds, lifetime * mandatoryFraction), min(advisorySeconds, lifetime * advisoryFraction))
    }

    /// The pause before attempt number `failures + 1`.
    public func retryDelay(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        var delay = initialRetryDelay
        for _ in 1..<failures { delay = min(delay * 2, maximumRetryDelay) }
        return min(delay, maximumRetryDelay)
    }
}
