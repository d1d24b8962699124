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
}
