import SystemPlumbing
import Testing

@testable import AuthVaultApp

/// The renewal loop `exec --token-file` and `exec --aws` share: it waits by the caller's schedule from the latest
/// expiry, keeps the old one when a renewal fails and tries again after the retry pause, stops when cancelled, and
/// never waits an impossible time.
@Suite struct AheadOfExpiryTests {
    @Test func itRenewsOnScheduleKeepsTheOldExpiryOnAFailureAndStopsWhenCancelled() async throws {
        let remainings = Locked<[Double]>([])
        let renewals = Locked(0)
        let keeping = AheadOfExpiry.keepRenewing(
            expiresAt: 100, now: { 40 },
            schedule: { remaining in
                remainings.withLock { $0.append(remaining) }
                return 0.01
            }, retryAfter: 0.01
        ) {
            let number = renewals.withLock { count in
                count += 1
                return count
            }
            // The first fails (no network): the next wait is still from the expiry in hand.
            return number == 1 ? nil : 100 + Double(number) * 10
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while renewals.withLock({ $0 }) < 3 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        keeping.cancel()
        await keeping.value
        let stopped = renewals.withLock { $0 }
        #expect(Array(remainings.withLock { $0 }.prefix(3)) == [60, 60, 80])
        try await Task.sleep(for: .milliseconds(100))
        #expect(renewals.withLock { $0 } == stopped, "nothing more once cancelled")
    }

    @Test func aWaitIsNeverNegativeNorLongerThanADay() {
        #expect(AheadOfExpiry.clampedWait(12.5) == 12.5)
        #expect(AheadOfExpiry.clampedWait(-5) == 0)
        #expect(AheadOfExpiry.clampedWait(1e300) == AheadOfExpiry.longestWait)
        #expect(AheadOfExpiry.clampedWait(.infinity) == AheadOfExpiry.longestWait)
        #expect(AheadOfExpiry.clampedWait(-.infinity) == 0)
        #expect(AheadOfExpiry.clampedWait(.nan) == AheadOfExpiry.longestWait)
    }

    /// An expiry no clock reaches (an agent's nonsense `expiresAt`) makes a one-day wait, not a trap.
    @Test func aFarExpiryWaitsADayAndIsCancelledAtOnce() async {
        let keeping = AheadOfExpiry.keepRenewing(
            expiresAt: 2e9 * 1e300, now: { 0 }, schedule: { $0 }, retryAfter: 5
        ) { nil }
        keeping.cancel()
        await keeping.value
    }
}
