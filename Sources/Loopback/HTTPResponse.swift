internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The bytes of a complete HTTP/1.1 response, with headers that keep it out of caches, end the connection and
/// forbid a page to load or send anything.
enum HTTPResponse {
    enum Status: Int {
        case ok = 200
        case badRequest = 400
        case unauthorized = 401
        case forbidden = 403
        case notFound = 404
        case methodNotAllowed = 405
        case requestTimeout = 408
        case headersTooLarge = 431
        case serviceUnavailable = 503

        var reason: String {
            switch self {
            case .ok: "OK"
            case .badRequest: "Bad Request"
            case .unauthorized: "Unauthorized"
            case .forbidden: "Forbidden"
            case .notFound: "Not Found"
            case .methodNotAllowed: "Method Not Allowed"
            case .requestTimeout: "Request Timeout"
            case .headersTooLarge: "Request Header Fields Too Large"
            case .serviceUnavailable: "Service Unavailable"
            }
        }
    }

    /// What a response carries: a page for the browser, or a JSON document for a program.
    struct Body {
        let contentType: String
        let bytes: [UInt8]

        static func page(_ page: CallbackPage) -> Body {
            Body(contentType: "text/html; charset=utf-8", bytes: Array(page.html.utf8))
        }

        static func json(_ bytes: [UInt8]) -> Body {
            Body(contentType: "application/json", bytes: bytes)
        }
    }

    static func bytes(_ status: Status, _ body: Body) -> [UInt8] {
        let head =
            "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
            + "Content-Type: \(body.contentType)\r\n"
            + "Content-Length: \(body.bytes.count)\r\n"
            + "Cache-Control: no-store\r\n"
            + "Connection: close\r\n"
            + "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
            + "X-Content-Type-Options: nosniff\r\n"
            // The callback URL carries the code: never let it travel as a referrer.
            + "Referrer-Policy: no-referrer\r\n"
            + "\r\n"
        return Array(head.utf8) + body.bytes
    }
}

extension HTTPResponse {
    /// Writes the response with one non-blocking send: these responses are a few KB, below the send buffer of a
    /// fresh socket, so the kernel takes them whole and the serving thread (or the caller) never waits on a
    /// client. False when the peer has gone or did not take it all.
    @discardableResult
    static func send(_ status: Status, _ body: Body, to descriptor: Int32) -> Bool {
        let response = bytes(status, body)
        let sent = try? SystemCall.retryingInterrupts("send") {
            response.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
        }
        return sent == response.count
    }
}
