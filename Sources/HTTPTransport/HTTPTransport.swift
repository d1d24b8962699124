/// The one door to the network: every request of the project goes through it, so tests can inject faults
/// by passing another implementation.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the final response, whatever its status. Throws only when no response
    /// arrived (or it broke a limit); a cancelled task throws `HTTPError.cancelled` promptly.
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
