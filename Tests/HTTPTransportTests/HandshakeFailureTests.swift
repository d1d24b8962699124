import HTTPTransport
import TestSupport
import Testing

extension HTTPTransportTests {
    /// A handshake the peer breaks is told from one TLS refuses by what libcurl reports as numbers (the errno of the
    /// failed socket call), never by the words of its message: a reset is the network, worth another try; a peer
    /// that speaks no TLS is a TLS failure, which no retry mends.
    @Suite struct HandshakeFailures {
        @Test func aResetMidHandshakeIsALostConnectionWorthRetrying() async throws {
            let breaker = try await ScriptServer.start(script: "handshake_breaker.py", arguments: ["reset"])
            let error = try #require(
                await sendError(CurlTransport(), HTTPRequest(url: "https://127.0.0.1:\(breaker.port)/")))
            guard case .connectionLost = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(error.isRetryable)
        }

        /// libcurl keeps the errno of a reset on its handle, through `curl_easy_reset`: on the same (single) worker,
        /// a handshake refused right after one must not be taken for another reset.
        @Test func aPeerSpeakingNoTLSIsATLSFailureEvenRightAfterAReset() async throws {
            let resetting = try await ScriptServer.start(script: "handshake_breaker.py", arguments: ["reset"])
            let plaintext = try await ScriptServer.start(script: "handshake_breaker.py", arguments: ["plaintext"])
            let transport = CurlTransport(configuration: .init(maximumConcurrentTransfers: 1))
            let reset = try #require(
                await sendError(transport, HTTPRequest(url: "https://127.0.0.1:\(resetting.port)/")))
            guard case .connectionLost = reset else {
                Issue.record("got \(reset)")
                return
            }
            let refused = try #require(
                await sendError(transport, HTTPRequest(url: "https://127.0.0.1:\(plaintext.port)/")))
            guard case .tlsFailure = refused else {
                Issue.record("got \(refused)")
                return
            }
            #expect(!refused.isRetryable)
        }
    }
}
