import HTTPTransport

/// A transport to one identity provider that teaches its `ServerClock` the provider's time from the `Date` of every
/// answer, before anyone reads the answer (the tokens in it are then checked against the provider's clock).
public struct ClockLearningTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let clock: ServerClock

    public init(_ base: any HTTPTransport, teaching clock: ServerClock) {
        self.base = base
        self.clock = clock
    }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let response = try await base.send(request)
        if let serverTime = response.serverTime { clock.learn(serverTime: serverTime) }
        return response
    }
}
