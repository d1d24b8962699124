internal import CCurl
import DebugTrace

/// `HTTPTransport` over libcurl.
///
/// Each transfer runs, blocking, on one of a few worker threads of its own (never on Swift's cooperative
/// pool) while the caller awaits. Workers keep their connections alive between requests. TLS verifies the
/// peer and its host name always. Redirects are not followed: a 3xx comes back as the response.
/// Deadlines are honoured to the millisecond. Proxies are the configuration's only (`HTTPProxySettings`).
///
/// Cancelling the awaiting task throws `HTTPError.cancelled` at once; the worker aborts the transfer at
/// libcurl's next progress callback.
///
/// libcurl is opened by the first request, so a process that sends none never loads it; when it is missing,
/// every request fails with `HTTPError.other` saying what to install.
public final class CurlTransport: HTTPTransport {
    private let pool: CurlWorkerPool
    private let trace: DebugTrace

    public init(configuration: CurlTransportConfiguration = .init()) {
        pool = CurlWorkerPool(configuration: configuration)
        trace = configuration.trace
    }

    /// Idle workers exit; one still busy with a cancelled transfer exits when it ends.
    deinit {
        pool.shutDown()
    }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        // libcurl is loaded (and globally initialized) by the first request, not at start-up.
        if let loadError = authvault_curl_load_error() { throw .other(String(cString: loadError)) }
        let start = ContinuousClock.now
        let job = TransferJob(request: request)
        let outcome = await withTaskCancellationHandler {
            await job.run(submit: pool.submit)
        } onCancel: {
            job.cancel()
        }
        if trace.isOn { trace(Self.traceLine(request, outcome, since: start)) }
        return try outcome.get()
    }

    /// "HTTP POST https://cognito-idp.us-east-1.amazonaws.com/ → 200 in 85.1 ms (InitiateAuth)": no query, body or
    /// header.
    private static func traceLine(
        _ request: HTTPRequest, _ outcome: Result<HTTPResponse, HTTPError>,
        since start: ContinuousClock.Instant
    ) -> String {
        let result =
            switch outcome {
            case .success(let response): "\(response.status)"
            case .failure(let error): "failed (\(error))"
            }
        return
            "HTTP \(request) → \(result) in \(DebugTrace.milliseconds(since: start))\(request.operation.map { " (\($0))" } ?? "")"
    }
}
