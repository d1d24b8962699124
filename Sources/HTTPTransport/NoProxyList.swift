import NetworkHosts

/// `no_proxy` read as libcurl reads it (its noproxy.c), so that this package, not libcurl, decides whether a request
/// goes through the proxy and so knows it when the connection fails: `*` alone for every host; otherwise entries
/// separated by commas or blanks: a name matches that host and every name under it (a leading dot changes
/// nothing), an IP address or CIDR range (`10.0.0.0/8`, `fd00::/8`) matches addresses only.
struct NoProxyList: Sendable {
    private let entries: [Substring]
    private let everyHost: Bool

    init(_ text: String?) {
        let text = text ?? ""
        everyHost = text == "*"
        entries = text.split { $0 == "," || $0 == " " || $0 == "\t" }
    }

    func contains(_ host: NetworkHost) -> Bool {
        everyHost || entries.contains { Self.entry($0, matches: host) }
    }

    private static func entry(_ entry: Substring, matches host: NetworkHost) -> Bool {
        switch host {
        case .name(let name):
            var domain = entry.lowercased()
            if domain.hasPrefix(".") { domain.removeFirst() }
            if domain.hasSuffix(".") { domain.removeLast() }
            return !domain.isEmpty && (name == domain || name.hasSuffix("." + domain))
        case .ipv4(let address):
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: address >> (24 - 8 * $0)) }
            return network(entry, contains: bytes)
        case .ipv6(let bytes):
            return network(entry, contains: bytes)
        }
    }

    /// An address or a range: without `/bits`, or with /0 as libcurl reads it, the whole address must match.
    private static func network(_ entry: Substring, contains address: [UInt8]) -> Bool {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let network: [UInt8]
        switch NetworkHost(parts[0]) {
        case .ipv4(let value)?: network = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        case .ipv6(let value)?: network = value
        default: return false
        }
        guard network.count == address.count else { return false }
        var bits = network.count * 8
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given) else { return false }
            if given > 0 { bits = given }
        }
        for index in 0..<network.count where bits > index * 8 {
            let mask = UInt8(truncatingIfNeeded: 0xFF << max(0, 8 - (bits - index * 8)))
            if network[index] & mask != address[index] & mask { return false }
        }
        return true
    }
}
