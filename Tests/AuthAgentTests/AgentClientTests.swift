import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// The client's typed errors, against sockets that are not a healthy agent.
    @Suite struct AgentClientTests {
        /// A listening socket that accepts and then does what `serve` says, on a thread of its own.
        func fakeAgent(at path: String, serve: @escaping @Sendable (Int32) -> Void) throws -> Int32 {
            let listener = try boundSocket(at: path)
            try #require(listen(listener, 8) == 0)
            Thread {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                serve(connection)
                close(connection)
            }.start()
            return listener
        }

        @Test func noSocketMeansNotRunning() throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let path = directory.appending("agent.sock")
            #expect(throws: AgentClientError.notRunning(socketPath: path)) {
                try AgentClient(socketPath: path).token(profile: "work")
            }
        }

        @Test func anAgentThatNeverAnswersTimesOut() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let path = directory.appending("agent.sock")
            let listener = try fakeAgent(at: path) { _ in usleep(1_500_000) }
            defer { close(listener) }
            let started = ContinuousClock.now
            await #expect(throws: AgentClientError.timedOut(seconds: 0.3)) {
                try await OffPool.run { try AgentClient(socketPath: path, timeout: .milliseconds(300)).ping() }
            }
            #expect(ContinuousClock.now - started < .seconds(1))
        }

        @Test func aReplyThatIsNotTheProtocolIsAProtocolError() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let path = directory.appending("agent.sock")
            let listener = try fakeAgent(at: path) { connection in
                var request = [UInt8](repeating: 0, count: 256)
                _ = recv(connection, &request, request.count, 0)
                _ = send(connection, "HTTP/1.1 400 Bad Request\n", 25, Int32(MSG_NOSIGNAL))
            }
            defer { close(listener) }
            await #expect {
                try await OffPool.run { try AgentClient(socketPath: path).token(profile: "work") }
            } throws: { error in
                guard case .protocolError = error as? AgentClientError else { return false }
                return true
            }
        }

        @Test func anAgentThatHangsUpIsAProtocolError() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let path = directory.appending("agent.sock")
            let listener = try fakeAgent(at: path) { _ in }
            defer { close(listener) }
            await #expect {
                try await OffPool.run { try AgentClient(socketPath: path).ping() }
            } throws: { error in
                guard case .protocolError = error as? AgentClientError else { return false }
                return true
            }
        }
    }
}
