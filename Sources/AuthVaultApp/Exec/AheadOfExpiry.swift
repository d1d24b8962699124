/// What `exec --token-file` and `exec --aws` share: something with an expiry (a token in a file, the credentials the
/// endpoint serves) renewed ahead of each expiry for as long as the command runs.
enum AheadOfExpiry {
    /// The longest single wait: an expiry years away (or a clock jump) is looked at again within a day, and a
    /// nonsensical one (infinite, NaN) never makes a `Duration` that traps.
    static let longestWait = 86_400.0

    /// Renews until the task is cancelled: waits `schedule(seconds left)`, then `renew()`s, which gives the new
    /// expiry, or nil when it could not (no network or no session for now: what the command has stays, and the next
    /// try comes `retryAfter` seconds later, never in a busy loop).
    /// - Parameters:
    ///   - expiresAt: the expiry in hand, in Unix seconds by `now`'s clock.
    ///   - schedule: seconds to wait before renewing what has this many seconds left.
    static func keepRenewing(
        expiresAt: Double, now: @escaping @Sendable () -> Double, schedule: @escaping @Sendable (Double) -> Double,
        retryAfter: Double, renew: @escaping @Sendable () async -> Double?
    ) -> Task<Void, Never> {
        Task {
            var expiresAt = expiresAt
            while true {
                guard await pause(schedule(expiresAt - now())) else { return }
                if let next = await renew() {
                    expiresAt = next
                } else {
                    guard await pause(retryAfter) else { return }
                }
            }
        }
    }

    /// `seconds` within 0...`longestWait` (NaN taken as the longest).
    static func clampedWait(_ seconds: Double) -> Double {
        seconds.isNaN ? longestWait : min(max(seconds, 0), longestWait)
    }

    /// False once the task is cancelled.
    private static func pause(_ seconds: Double) async -> Bool {
        (try? await Task.sleep(for: .seconds(clampedWait(seconds)))) != nil
    }
}
