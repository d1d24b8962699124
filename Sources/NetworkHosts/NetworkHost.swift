#if canImport(Glibc)
    internal import Glibc
#endif

/// A host as a URL or a tool names it: an IPv4 literal, an IPv6 literal or a DNS name. Literals are parsed with
/// `inet_pton`, which takes only the canonical forms (`127.0.0.1`, `::1`), never `inet_aton`'s shorthands
/// (`127.1`, `0x7f.1`, `2130706433`): those are names here, and so never loopback.
public enum NetworkHost: Hashable, Sendable, CustomStringConvertible {
    /// The address in host byte order.
    case ipv4(UInt32)
    /// The 16 bytes of the address.
    case ipv6([UInt8])
    /// Lowercased, without a trailing dot (`Example.COM.` and `example.com` are one host), except `localhost.`.
    case name(String)

    /// `text` is a bare host: an IPv6 literal with or without its URL brackets, never with a port. Nil for an
    /// empty name or one with characters no host name has.
    public init?(_ text: some StringProtocol) {
        let bare = Substring(text)
        if bare.hasPrefix("[") || bare.hasSuffix("]") {
            // Brackets hold an IPv6 literal and nothing else.
            guard bare.hasPrefix("["), bare.hasSuffix("]"), bare.count > 2,
                let address = Self.parseIPv6(bare.dropFirst().dropLast())
            else { return nil }
            self = .ipv6(address)
        } else if let address = Self.parseIPv4(bare) {
            self = .ipv4(address)
        } else if let address = Self.parseIPv6(bare) {
            self = .ipv6(address)
        } else {
            var name = bare.lowercased()
            // `localhost.` keeps its dot: libcurl resolves only the bare name locally and asks DNS for this one.
            if name.hasSuffix("."), name != "localhost." { name.removeLast() }
            let allowed = name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            }
            guard !name.isEmpty, allowed, !name.hasPrefix("."), !name.contains("..") else { return nil }
            self = .name(name)
        }
    }

    /// 127.0.0.0/8, ::1, or exactly the name `localhost` (RFC 6761 section 6.3: it never leaves the machine, and
    /// libcurl resolves it without DNS). `localhost.`, `localhost.example.com`, `127.0.0.1.nip.io` and
    /// `127.attacker.example` are names like any other.
    public var isLoopback: Bool {
        switch self {
        case .ipv4(let address): address >> 24 == 127
        case .ipv6(let bytes): bytes == Self.ipv6Loopback
        case .name(let name): name == "localhost"
        }
    }

    /// As in a URL authority: IPv6 in brackets.
    public var description: String {
        switch self {
        case .ipv4(let address): [24, 16, 8, 0].map { String((address >> $0) & 0xFF) }.joined(separator: ".")
        case .ipv6(let bytes): "[" + Self.format(bytes) + "]"
        case .name(let name): name
        }
    }

    private static let ipv6Loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]

    private static func parseIPv4(_ text: Substring) -> UInt32? {
        var address = in_addr()
        guard inet_pton(AF_INET, String(text), &address) == 1 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    private static func parseIPv6(_ text: Substring) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(text), &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    private static func format(_ bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
