import SystemPlumbing

/// Unix time that a test moves by hand.
public final class TestClock: Sendable {
    private let seconds: Locked<Double>

    public init(_ start: Double = 1_800_000_000) { seconds = Locked(start) }

    public func advance(by delta: Double) { seconds.withLock { $0 += delta } }

    /// The time it shows now.
    public var reading: Double { seconds.withLock { $0 } }

    /// The clock as the code under test takes one.
    public var now: @Sendable () -> Double { { [self] in reading } }
}
