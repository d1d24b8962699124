extension ContinuousClock.Instant {
    /// Milliseconds from `now` to this instant, rounded up, as `poll` takes them (0 once it has passed).
    package func pollTimeout(from now: ContinuousClock.Instant) -> Int32 {
        let remaining = now.duration(to: self)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        // A deadline further than poll can wait is waited for in turns: seconds * 1000 would overflow first.
        guard seconds < Int64(Int32.max / 1000) else { return Int32.max }
        return Int32(seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
