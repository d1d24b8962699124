import Foundation
import Loopback

/// A listener on a port that was free a moment ago, registered as `http://127.0.0.1:PORT/callback`.
struct ListenerFixture {
    /// The example values of RFC 6749 section 4.1.2.
    static let code = "SplxlOBeZQQYbYS6WxSbIA"
    static let state = "xyz"

    let port: Int
    let uri: String
    let listener: LoopbackListener

    init(timeout: Duration = .seconds(20), limits: LoopbackListener.Limits = .init()) throws {
        port = try LoopbackPorts.free(1)[0]
        uri = "http://127.0.0.1:\(port)/callback"
        listener = try LoopbackListener(redirectURIs: [uri], state: Self.state, timeout: timeout, limits: limits)
    }

    var callbackTarget: String { "/callback?code=\(Self.code)&state=\(Self.state)" }
}

extension RawHTTPResponse {
    /// The headers every page of the listener carries.
    var hasPageHeaders: Bool {
        headers["cache-control"] == "no-store" && headers["connection"] == "close"
            && headers["content-security-policy"] == "default-src 'none'; style-src 'unsafe-inline'"
            && headers["content-type"] == "text/html; charset=utf-8"
            && headers["content-length"] == String(body.utf8.count)
    }
}

/// Waits for the callback in a task of its own, so a test can act as the browser meanwhile.
func waitingTask(_ listener: LoopbackListener) -> Task<AuthorizationCallback, any Error> {
    Task { try await listener.waitForCallback() }
}
