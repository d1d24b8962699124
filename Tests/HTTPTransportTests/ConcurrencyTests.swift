import Foundation
import HTTPTransport
import Testing

extension HTTPTransportTests {
    @Suite struct Concurrency {
        @Test func sequentialRequestsReuseOneConnection() async throws {
            let server = try await TestHTTPServer.start()
            let transport = CurlTransport()
            for index in 0..<5 {
                let echo = try Echo(
                    try await transport.send(
                        HTTPRequest(method: "POST", url: server.url("/echo"), body: [UInt8(index)])))
                #expect(echo.bodyBytes == [UInt8(index)])
            }
            let count = try await transport.send(HTTPRequest(url: server.url("/connections")))
            #expect(String(decoding: count.body, as: UTF8.self) == #"{"connections": 1}"#)
        }

        @Test func twentyConcurrentRequestsAllComplete() async throws {
            let server = try await TestHTTPServer.start()
            let transport = CurlTransport()
            let bodies = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let response = try await transport.send(
                            HTTPRequest(method: "POST", url: server.url("/echo"), body: Array("request \(index)".utf8)))
                        return (index, try Echo(response).bodyBytes)
                    }
                }
                return try await group.reduce(into: [Int: [UInt8]]()) { $0[$1.0] = $1.1 }
            }
            #expect(bodies.count == 20)
            for (index, body) in bodies { #expect(body == Array("request \(index)".utf8)) }
        }

        @Test func stalledTransfersDoNotBlockTheCooperativePool() async throws {
            let server = try await TestHTTPServer.start()
            let transport = CurlTransport()
            // More stalled transfers than the cooperative pool has threads (2 here).
            let stalled = (0..<4).map { _ in
                Task { try await transport.send(HTTPRequest(url: server.url("/stall/1000"))) }
            }
            try await Task.sleep(for: .milliseconds(150))
            let start = ContinuousClock.now
            await Task {}.value
            let waited = seconds(ContinuousClock.now - start)
            #expect(waited < 0.2, "a plain Task waited \(waited) s")
            for task in stalled { #expect(try await task.value.body == Array("late".utf8)) }
        }

        @Test func cancellingAStalledRequestReturnsPromptly() async throws {
            let server = try await TestHTTPServer.start()
            // One worker: the follow-up request succeeds only if the stalled transfer was really aborted.
            let transport = CurlTransport(configuration: .init(maximumConcurrentTransfers: 1))
            let stalled = Task { try await transport.send(HTTPRequest(url: server.url("/stall/10000"))) }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            stalled.cancel()
            let result = await stalled.result
            let waited = seconds(ContinuousClock.now - start)
            #expect(waited < 0.2, "cancellation took \(waited) s")
            #expect(throws: HTTPError.cancelled) { try result.get() }

            let followUpStart = ContinuousClock.now
            let followUp = try await transport.send(HTTPRequest(url: server.url("/status/204")))
            #expect(followUp.status == 204)
            #expect(seconds(ContinuousClock.now - followUpStart) < 2, "the worker was not freed")
        }

        @Test func alreadyCancelledTaskSendsNothing() async throws {
            let server = try await TestHTTPServer.start()
            let transport = CurlTransport()
            let result = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(HTTPRequest(url: server.url("/echo")))
            }.result
            #expect(throws: HTTPError.cancelled) { try result.get() }
            let count = try await transport.send(HTTPRequest(url: server.url("/connections")))
            #expect(String(decoding: count.body, as: UTF8.self) == #"{"connections": 1}"#)
        }
    }
}
