internal import CCurl

/// A libcurl easy handle with its error buffer, and typed `curl_easy_setopt` calls that fail with an
/// `HTTPError`. Used by one worker thread at a time.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    /// Where libcurl writes the details of a failure (CURLOPT_ERRORBUFFER); must outlive every transfer.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    init?() {
        guard let raw = authvault_curl_easy_init() else { return nil }
        self.raw = raw
    }

    deinit {
        authvault_curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Back to libcurl's defaults, keeping the connection, DNS and TLS session caches.
    func reset() throws(HTTPError) {
        authvault_curl_easy_reset(raw)
        errorBuffer[0] = 0
        try check(authvault_curl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer))
    }

    /// libcurl's explanation of the last failure, or the generic text of `code`.
    func errorMessage(for code: CURLcode) -> String {
        errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: authvault_curl_easy_strerror(code))
    }

    func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(authvault_curl_setopt_long(raw, option, value))
    }

    /// libcurl copies string options, so the bridged pointer may die after the call.
    func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(authvault_curl_setopt_string(raw, option, value))
    }

    func set(_ option: CURLoption, offset value: Int) throws(HTTPError) {
        try check(authvault_curl_setopt_off(raw, option, curl_off_t(value)))
    }

    /// The pointee must stay alive until the transfer ends.
    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPError) {
        try check(authvault_curl_setopt_pointer(raw, option, pointer))
    }

    func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) throws(HTTPError) {
        try check(authvault_curl_setopt_slist(raw, option, list))
    }

    func set(_ option: CURLoption, callback: authvault_curl_data_callback) throws(HTTPError) {
        try check(authvault_curl_setopt_callback(raw, option, callback))
    }

    func setProgressCallback(_ callback: authvault_curl_xferinfo_callback) throws(HTTPError) {
        try check(authvault_curl_setopt_xferinfo(raw, callback))
    }

    func info(_ item: CURLINFO) -> Int {
        var value = 0
        return authvault_curl_getinfo_long(raw, item, &value) == CURLE_OK ? value : 0
    }

    /// The errno of the last socket call that failed on this handle (CURLINFO_OS_ERRNO). libcurl never clears it,
    /// not even in `curl_easy_reset`: a worker replaces a handle that has one (`CurlWorker`), so that it is this
    /// transfer's.
    var socketErrno: Int { info(CURLINFO_OS_ERRNO) }

    private func check(_ code: CURLcode) throws(HTTPError) {
        guard code == CURLE_OK else {
            throw .other("libcurl refused an option: \(String(cString: authvault_curl_easy_strerror(code)))")
        }
    }
}
