internal import CCurl

/// What libcurl tells of a failed transfer beside its code, as numbers: the code alone cannot tell a proxy's refusal
/// from the server's, or a connection dropped mid-handshake from a handshake TLS refused. Never the error text.
struct CurlFailureFacts {
    /// The request went to a proxy: the only connection libcurl then makes is to the proxy.
    var throughProxy = false
    /// The proxy's answer to CONNECT (CURLINFO_HTTP_CONNECTCODE); 0 when none came.
    var connectCode = 0
    /// The errno of a socket call that failed during this transfer (CURLINFO_OS_ERRNO): ECONNRESET, ...; 0 for none.
    var socketErrno = 0

    init(throughProxy: Bool = false, connectCode: Int = 0, socketErrno: Int = 0) {
        self.throughProxy = throughProxy
        self.connectCode = connectCode
        self.socketErrno = socketErrno
    }

    init(handle: CurlEasyHandle, throughProxy: Bool) {
        self.init(
            throughProxy: throughProxy, connectCode: handle.info(CURLINFO_HTTP_CONNECTCODE),
            socketErrno: handle.socketErrno)
    }

    /// The proxy answered CONNECT, with something other than 2xx: it refused the tunnel.
    var proxyRefusedTunnel: Bool { connectCode != 0 && !(200..<300).contains(connectCode) }
}

extension HTTPError {
    /// The case for a failed `curl_easy_perform`. `message` is libcurl's error buffer: it names hosts and
    /// the cause, never the request's query, headers or body; it is carried, never read.
    init(curlCode code: CURLcode, message: String, url: RedactedURL, responseLimit: Int, facts: CurlFailureFacts) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            self = .invalidURL(url.description)
        case CURLE_COULDNT_RESOLVE_HOST:
            self = .cannotResolveHost(url.host)
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            self = .proxyFailure(message)
        case _ where facts.proxyRefusedTunnel:
            self = .proxyFailure(message)
        case CURLE_COULDNT_CONNECT where facts.throughProxy:
            self = .proxyFailure(message)
        case CURLE_COULDNT_CONNECT:
            self = .cannotConnect(message)
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_SSL_CONNECT_ERROR where facts.socketErrno != 0:
            // A socket call failed mid-handshake (the peer reset it): the network, not TLS.
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
