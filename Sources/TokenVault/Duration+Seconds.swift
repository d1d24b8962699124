extension Duration {
    /// The duration in (fractional) seconds, for messages and for C APIs that take seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
