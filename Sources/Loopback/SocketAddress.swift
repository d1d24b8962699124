#if canImport(Glibc)
    internal import Glibc
#endif

/// An IPv4 or IPv6 socket address, as the C socket calls take and return it.
struct SocketAddress: CustomStringConvertible {
    private var storage = sockaddr_storage()
    private(set) var length: socklen_t

    static func ipv4(_ networkOrderAddress: UInt32, port: Int) -> SocketAddress {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = networkOrderAddress
        return SocketAddress(copying: address)
    }

    static func ipv6Loopback(port: Int) -> SocketAddress {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = UInt16(port).bigEndian
        address.sin6_addr = in6addr_loopback
        return SocketAddress(copying: address)
    }

    /// The local address a socket is bound to (`getsockname`).
    static func local(of descriptor: Int32) -> SocketAddress? {
        var address = SocketAddress(length: socklen_t(MemoryLayout<sockaddr_storage>.size))
        let status = withUnsafeMutablePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &address.length) }
        }
        return status == 0 ? address : nil
    }

    private init(length: socklen_t) { self.length = length }

    private init<Address>(copying address: Address) {
        length = socklen_t(MemoryLayout<Address>.size)
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
    }

    var family: Int32 { Int32(storage.ss_family) }

    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { bytes in
            body(bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// `127.0.0.1:8400` or `[::1]:8402`.
    var description: String {
        withUnsafeBytes(of: storage) { bytes in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let base = bytes.baseAddress!
            if family == AF_INET6 {
                let address = base.assumingMemoryBound(to: sockaddr_in6.self)
                _ = withUnsafePointer(to: address.pointee.sin6_addr) {
                    inet_ntop(AF_INET6, $0, &text, socklen_t(text.count))
                }
                return "[\(Self.string(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
            }
            let address = base.assumingMemoryBound(to: sockaddr_in.self)
            _ = withUnsafePointer(to: address.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) }
            return "\(Self.string(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
        }
    }

    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
