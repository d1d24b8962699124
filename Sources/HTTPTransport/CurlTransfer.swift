internal import CCurl
import NetworkHosts

/// One request performed, blocking, on a worker's easy handle: validation, options, callbacks, result.
struct CurlTransfer {
    let job: TransferJob
    let configuration: CurlTransportConfiguration
    let handle: CurlEasyHandle

    private var request: HTTPRequest { job.request }
    /// Decided here, once, so that a failure to connect is known to be the proxy's or the server's.
    private var proxy: String? { configuration.proxy.proxy(for: request.url) }

    func perform() -> TransferJob.Outcome {
        let sink = ResponseSink(limit: configuration.maximumResponseBytes, job: job)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { authvault_curl_slist_free_all(headerList) }
        // While idle the handle must hold no pointer into this transfer's memory (headers, body, sink).
        defer { authvault_curl_easy_reset(handle.raw) }
        // libcurl reads the body in place and needs a valid pointer even for an empty one.
        let body = request.body.isEmpty ? [0] : request.body
        return body.withUnsafeBufferPointer { bodyBytes in
            withExtendedLifetime(sink) {
                do throws(HTTPError) {
                    try validateRequest()
                    try handle.reset()
                    try setConnectionOptions()
                    try setMethodAndBody(UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress!))
                    headerList = try makeHeaderList()
                    try handle.set(CURLOPT_HTTPHEADER, list: headerList)
                    try setCallbacks(Unmanaged.passUnretained(sink).toOpaque())
                    return .success(try run(collectingInto: sink))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    private func run(collectingInto sink: ResponseSink) throws(HTTPError) -> HTTPResponse {
        let code = authvault_curl_easy_perform(handle.raw)
        guard code == CURLE_OK else {
            if sink.exceededLimit { throw .responseTooLarge(limit: configuration.maximumResponseBytes) }
            throw HTTPError(
                curlCode: code, message: handle.errorMessage(for: code), url: RedactedURL(request.url),
                responseLimit: configuration.maximumResponseBytes,
                facts: CurlFailureFacts(handle: handle, throughProxy: proxy != nil))
        }
        return HTTPResponse(status: handle.info(CURLINFO_RESPONSE_CODE), headers: sink.headers, body: sink.body)
    }

    /// Refuses what libcurl would guess at or pass on blindly: a URL without an http(s) scheme (libcurl
    /// would assume http), plain http to a host that is not a loopback address, control characters (a NUL
    /// would cut the C string short), line breaks in a method or header (they would inject headers).
    private func validateRequest() throws(HTTPError) {
        let url = request.url
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard url.contains("://"), scheme == "http" || scheme == "https",
            !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F })
        else {
            throw .invalidURL(RedactedURL(url).description)
        }
        // The last word on plain http, whatever the configuration said: nothing is sent in clear to another host.
        guard ServiceURL.isPermitted(url) else { throw .insecureURL(RedactedURL(url).description) }
        guard request.method.isHTTPToken else { throw .invalidRequest("the method is not an HTTP token") }
        for header in request.headers {
            guard header.name.isHTTPToken else { throw .invalidRequest("a header name is not an HTTP token") }
            guard !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw .invalidRequest("the value of header \(header.name) contains a line break or NUL")
            }
        }
    }

    private func setConnectionOptions() throws(HTTPError) {
        try handle.set(CURLOPT_URL, request.url)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try handle.set(CURLOPT_FOLLOWLOCATION, 0)
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caBundlePath = configuration.caBundlePath {
            try CABundle.check(caBundlePath)
            try handle.set(CURLOPT_CAINFO, caBundlePath)
        }
        // Empty values switch off libcurl's own reading of the proxy variables: only the configuration counts.
        try handle.set(CURLOPT_PROXY, proxy ?? "")
        try handle.set(CURLOPT_NOPROXY, "")
        try handle.set(CURLOPT_USERAGENT, configuration.userAgent)
        try handle.set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeout.curlMilliseconds)
        try handle.set(CURLOPT_TIMEOUT_MS, (request.timeout ?? configuration.defaultTimeout).curlMilliseconds)
        // Refuses a declared Content-Length over the limit before the body arrives; the write callback
        // enforces the limit for bodies without one.
        try handle.set(CURLOPT_MAXFILESIZE_LARGE, offset: configuration.maximumResponseBytes)
    }

    private func setMethodAndBody(_ body: UnsafeMutableRawPointer) throws(HTTPError) {
        if request.method == "POST" || !request.body.isEmpty {
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: request.body.count)
            try handle.set(CURLOPT_POSTFIELDS, pointer: body)
            if request.method != "POST" { try handle.set(CURLOPT_CUSTOMREQUEST, request.method) }
        } else if request.method == "GET" {
            try handle.set(CURLOPT_HTTPGET, 1)
        } else if request.method == "HEAD" {
            try handle.set(CURLOPT_NOBODY, 1)
        } else {
            try handle.set(CURLOPT_CUSTOMREQUEST, request.method)
        }
    }

    /// The request's headers as given. libcurl's own `Expect: 100-continue` (a pause before large bodies)
    /// and its default form Content-Type for POST are switched off; an empty value is sent as such.
    private func makeHeaderList() throws(HTTPError) -> UnsafeMutablePointer<curl_slist>? {
        var lines = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        lines.append("Expect:")
        if request.headers.firstValue(named: "Content-Type") == nil { lines.append("Content-Type:") }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let extended = authvault_curl_slist_append(list, line) else {
                authvault_curl_slist_free_all(list)
                throw .other("out of memory building the request headers")
            }
            list = extended
        }
        return list
    }

    /// The callbacks get the sink as their context; it outlives the transfer.
    private func setCallbacks(_ sink: UnsafeMutableRawPointer) throws(HTTPError) {
        try handle.set(CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let chunk = UnsafeRawBufferPointer(start: data, count: size * count)
            return Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue().appendBody(chunk)
                ? size * count : 0
        }
        try handle.set(CURLOPT_WRITEDATA, pointer: sink)
        try handle.set(CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let line = UnsafeRawBufferPointer(start: data, count: size * count)
            Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue().appendHeaderLine(line)
            return size * count
        }
        try handle.set(CURLOPT_HEADERDATA, pointer: sink)
        // Called several times a second while a transfer runs, also while it stalls: returning non-zero
        // aborts it (CURLE_ABORTED_BY_CALLBACK) once the caller has given up.
        try handle.setProgressCallback { context, _, _, _, _ in
            Unmanaged<ResponseSink>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
        }
        try handle.set(CURLOPT_XFERINFODATA, pointer: sink)
        try handle.set(CURLOPT_NOPROGRESS, 0)
    }
}

extension String {
    /// RFC 9110 section 5.6.2: one or more of the `tchar` characters.
    fileprivate var isHTTPToken: Bool {
        !isEmpty
            && utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }
}

extension Duration {
    /// Rounded up, and at least 1: libcurl reads 0 as "no deadline".
    fileprivate var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded(.up)
        return Int(min(max(milliseconds, 1), Double(Int32.max)))
    }
}
