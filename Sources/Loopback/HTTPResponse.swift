internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The bytes of a complete HTTP/1.1 response carrying a page, with headers that keep it out of caches, end the
/// connection and forbid the page to load or send anything.
enum HTTPResponse {
    enum Status: Int {
        case ok = 200
        case badRequest = 400
        case notFound = 404
        case requestTimeout = 408
        case headersTooLarge = 431

        var reason: String {
            switch self {
            case .ok: "OK"
            case .badRequest: "Bad Request"
            case .notFound: "Not Found"
            case .requestTimeout: "Request Timeout"
            case .headersTooLarge: "Request Header Fields Too Large"
            }
        }
    }

    static func bytes(_ status: Status, _ page: CallbackPage) -> [UInt8] {
        let body = Array(page.html.utf8)
        let head =
            "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
            + "Content-Type: text/html; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\n"
            + "Connection: close\r\n"
            + "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
            + "X-Content-Type-Options: nosniff\r\n"
            // The callback URL carries the code: never let it travel as a referrer.
            + "Referrer-Policy: no-referrer\r\n"
            + "\r\n"
        return Array(head.utf8) + body
    }
}

extension HTTPResponse {
    /// Writes the response with one non-blocking send: these pages are under 2 KB, far below the send buffer of a
    /// fresh socket, so the kernel takes them whole and the serving thread (or the caller) never waits on a
    /// browser. False when the peer has gone or did not take it all.
    @discardableResult
    static func send(_ status: Status, _ page: CallbackPage, to descriptor: Int32) -> Bool {
        let response = bytes(status, page)
        let sent = try? SystemCall.retryingInterrupts("send") {
            response.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
        }
        return sent == response.count
    }
}
