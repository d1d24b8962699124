import Foundation
import TestSupport

/// What a server sent back, read until it closed the connection.
struct RawHTTPResponse: Sendable {
    let status: Int
    /// Header names lower-cased.
    let headers: [String: String]
    let body: String
}

struct RawClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String, errno code: Int32 = errno) {
        self.description = "\(description): \(String(cString: strerror(code)))"
    }
}

/// A blocking TCP connection to a loopback address, standing in for the browser. Its calls block, so use it
/// inside `OffPool.run`, never on the cooperative pool.
final class RawConnection: Sendable {
    let descriptor: Int32

    init(host: String, port: Int, timeout: Int = 5) throws {
        let isIPv6 = host.contains(":")
        descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError("socket") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected: Bool
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
        guard connected else {
            let code = errno
            close(descriptor)
            throw RawClientError("connect \(host):\(port)", errno: code)
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw RawClientError("send") }
            offset += sent
        }
    }

    /// Everything until the server closes, parsed as one HTTP response.
    func readResponse() throws -> RawHTTPResponse {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            guard count > 0 else { throw RawClientError("recv after \(received.count) bytes") }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else {
            throw RawClientError("no complete response in \(text.debugDescription)", errno: 0)
        }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawClientError("bad status line \(lines[0])", errno: 0)
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return RawHTTPResponse(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}

/// Requests as a browser would make them, each on a connection of its own.
enum Browser {
    /// - Parameter authority: the `Host` sent; the address connected to unless given (`localhost:PORT`).
    static func get(
        _ target: String, port: Int, host: String = "127.0.0.1", authority: String? = nil, extraHeaders: String = ""
    ) async throws -> RawHTTPResponse {
        let authority = authority ?? (host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        return try await send(
            "GET \(target) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: LoopbackTests\r\n"
                + "Accept: text/html\r\n\(extraHeaders)\r\n", port: port, host: host)
    }

    static func send(_ request: String, port: Int, host: String = "127.0.0.1") async throws -> RawHTTPResponse {
        try await OffPool.run {
            let connection = try RawConnection(host: host, port: port)
            try connection.send(request)
            return try connection.readResponse()
        }
    }
}
