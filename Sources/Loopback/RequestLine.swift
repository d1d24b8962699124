/// The first line of an HTTP/1.x request: all the listener needs to judge it (headers are only counted, never used).
package struct RequestLine: Equatable {
    package let method: String
    /// The request target as sent, e.g. `/callback?code=...&state=...`.
    package let target: String

    /// Parses `METHOD SP target SP HTTP/1.x` from the start of a complete request head; nil when malformed.
    package init?(head: ArraySlice<UInt8>) {
        let line = head.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        guard line.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return nil }
        method = String(decoding: parts[0], as: UTF8.self)
        target = String(decoding: parts[1], as: UTF8.self)
    }
}
