internal import CCurl

extension HTTPError {
    /// The case for a failed `curl_easy_perform`. `message` is libcurl's error buffer: it names hosts and
    /// the cause, never the request's query, headers or body.
    init(curlCode code: CURLcode, message: String, url: RedactedURL, responseLimit: Int) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .invalidURL(url.description)
        case CURLE_COULDNT_RESOLVE_HOST:
            self = .cannotResolveHost(url.host)
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            self = .proxyFailure(message)
        case CURLE_RECV_ERROR where message.contains("CONNECT tunnel failed"):
            self = .proxyFailure(message)
        case CURLE_COULDNT_CONNECT:
            self = .cannotConnect(message)
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_SSL_CONNECT_ERROR where message.contains("SSL_ERROR_SYSCALL") || message.contains("reset"):
            // The peer hung up mid-handshake: the network, not the certificate.
            self = .connectionLost(message)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            self = .tlsFailure(message)
        case CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE:
            self = .caBundleUnreadable(message)
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2,
             CURLE_HTTP2_STREAM, CURLE_HTTP3:
            self = .connectionLost(message)
        case CURLE_FILESIZE_EXCEEDED:
            self = .responseTooLarge(limit: responseLimit)
        case CURLE_ABORTED_BY_CALLBACK:
            self = .cancelled
        default:
            self = .other("\(String(cString: authvault_curl_easy_strerror(code))): \(message)")
        }
    }

    /// A refused connection to the proxy itself is the proxy's trouble, not the server's: libcurl reports both as
    /// CURLE_COULDNT_CONNECT, naming the host and port it tried ("Failed to connect to HOST port PORT ...").
    func blamingProxy(_ proxy: String?) -> HTTPError {
        guard case .cannotConnect(let message) = self, let proxy, let (host, port) = Self.endpoint(ofProxy: proxy) else {
            return self
        }
        return message.contains("to \(host) port \(port) ") ? .proxyFailure(message) : self
    }

    /// The host (IPv6 without brackets) and port of a proxy as curl reads it: `[scheme://][user@]host[:port][/]`,
    /// port 1080 when none is given.
    private static func endpoint(ofProxy proxy: String) -> (host: Substring, port: Int)? {
        var rest = Substring(proxy)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "/" }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        let host: Substring, portText: Substring
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            portText = rest[rest.index(after: close)...].drop { $0 == ":" }
        } else {
            host = rest.prefix { $0 != ":" }
            portText = rest.drop { $0 != ":" }.dropFirst()
        }
        guard !host.isEmpty else { return nil }
        guard !portText.isEmpty else { return (host, 1080) }
        return Int(portText).map { (host, $0) }
    }
}
