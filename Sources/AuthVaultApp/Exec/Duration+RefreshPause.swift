extension Duration {
    /// The longest wait before a kept-fresh token or set of credentials is looked at again: a day, however far off
    /// its expiry is said to be (by the agent, by a server).
    static let longestRefreshPause = Duration.seconds(86_400)

    /// A wait of `seconds`, from zero (nan included) to `longestRefreshPause`: `.seconds(_:)` traps on a value beyond
    /// a `Duration`'s range, and a wait is computed from an expiry someone else stated.
    static func refreshPause(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        return seconds < 86_400 ? .seconds(seconds) : longestRefreshPause
    }
}
