import Foundation

/// Ports and listening sockets as the kernel sees them, found without the code under test.
enum LoopbackPorts {
    /// `count` distinct ports that were free on 127.0.0.1 a moment ago (bound to port 0 together, then closed).
    static func free(_ count: Int) throws -> [Int] {
        let holders = try (0..<count).map { _ in try PortHolder(host: "127.0.0.1", port: 0) }
        return holders.map(\.port)
    }

    /// Whether this machine can bind the IPv6 loopback address.
    static let hasIPv6Loopback: Bool = (try? PortHolder(host: "::1", port: 0)) != nil

    /// Every TCP socket in LISTEN state, as `127.0.0.1:8400` or `[::1]:8402`, read from /proc/net/tcp and tcp6.
    static func listening() throws -> Set<String> {
        var result: Set<String> = []
        for (file, isIPv6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
            guard let table = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3, fields[3] == "0A" else { continue }
                let local = fields[1].split(separator: ":")
                guard local.count == 2, let port = Int(local[1], radix: 16) else { continue }
                let address = try address(hex: String(local[0]), isIPv6: isIPv6)
                result.insert(isIPv6 ? "[\(address)]:\(port)" : "\(address):\(port)")
            }
        }
        return result
    }

    /// The kernel prints each 32-bit word of the address in host (little-endian) byte order.
    private static func address(hex: String, isIPv6: Bool) throws -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 8)
            let word = UInt32(hex[index..<next], radix: 16)!
            bytes += withUnsafeBytes(of: word.littleEndian) { Array($0) }
            index = next
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(isIPv6 ? AF_INET6 : AF_INET, bytes, &text, socklen_t(text.count)) != nil else {
            throw RawClientError("inet_ntop")
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A socket listening on a loopback port, holding it busy until released (no SO_REUSEADDR, like any program).
final class PortHolder {
    let descriptor: Int32
    let port: Int

    init(host: String, port: Int) throws {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError("socket") }
        self.descriptor = descriptor
        var storage = sockaddr_storage()
        var length: socklen_t
        if isIPv6 {
            var on: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
            }
        }
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw RawClientError("bind \(host):\(port)", errno: code)
        }
        self.port = Int(UInt16(bigEndian: withUnsafeBytes(of: storage) { $0.load(fromByteOffset: 2, as: UInt16.self) }))
    }

    deinit { close(descriptor) }
}
