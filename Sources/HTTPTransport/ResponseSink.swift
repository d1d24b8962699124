/// Collects what libcurl's callbacks deliver during one transfer: the headers of the last response, the
/// body up to the size limit, and whether the caller still waits (for the progress callback).
final class ResponseSink {
    private(set) var headers: [HTTPHeader] = []
    private(set) var body: [UInt8] = []
    private(set) var exceededLimit = false
    private let limit: Int
    private let job: TransferJob

    init(limit: Int, job: TransferJob) {
        self.limit = limit
        self.job = job
    }

    var isCancelled: Bool { job.isCancelled }

    /// False refuses the chunk, which makes libcurl abort with CURLE_WRITE_ERROR.
    func appendBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= limit else {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// One raw header line, CRLF included. A status line starts a new response (after `100 Continue`
    /// or a proxy's CONNECT reply), so only the last response's headers remain.
    func appendHeaderLine(_ line: UnsafeRawBufferPointer) {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers.removeAll()
        } else if let colon = text.firstIndex(of: ":") {
            headers.append(
                HTTPHeader(
                    name: String(text[..<colon]).trimmingHTTPWhitespace(),
                    value: String(text[text.index(after: colon)...]).trimmingHTTPWhitespace()))
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line ends (RFC 9110 section 5.5).
    fileprivate func trimmingHTTPWhitespace() -> String {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r\n" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
