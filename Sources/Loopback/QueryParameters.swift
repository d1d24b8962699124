import NetworkHosts

/// The `name=value` pairs of a query string, decoded as `application/x-www-form-urlencoded` (`+` is a space).
struct QueryParameters {
    private let pairs: [(name: String, value: String)]

    /// Nil when a pair has broken percent-encoding or does not decode to UTF-8.
    init?(_ query: Substring) {
        guard let pairs = FormURLEncoding.decode(query) else { return nil }
        self.pairs = pairs
    }

    func values(named name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }
}
