import AuthAgent
import Foundation
import SystemPlumbing
import TestSupport
import Testing

extension AgentSuites {
    /// Misbehaving clients, each while a well-behaved one keeps asking: the well-behaved one never notices.
    @Suite struct AgentRobustnessTests {
        /// Asks for tokens on a thread of its own until told to stop; counts answers and the slowest one.
        final class SteadyClient: Sendable {
            private let state = Locked<(answers: Int, failures: Int, slowest: Duration, stop: Bool)>(
                (0, 0, .zero, false))
            let finished = Locked<Bool>(false)

            init(socketPath: String, expected: String) {
                Thread { [self] in
                    let client = AgentClient(socketPath: socketPath)
                    while !state.withLock({ $0.stop }) {
                        let started = ContinuousClock.now
                        let ok = (try? client.token(profile: "work")).map { text($0.token) == expected } ?? false
                        let took = ContinuousClock.now - started
                        state.withLock { state in
                            if ok { state.answers += 1 } else { state.failures += 1 }
                            state.slowest = max(state.slowest, took)
                        }
                        usleep(2_000)
                    }
                    finished.withLock { $0 = true }
                }.start()
            }

            func stop() async -> (answers: Int, failures: Int, slowest: Duration) {
                state.withLock { $0.stop = true }
                while !finished.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
                return state.withLock { ($0.answers, $0.failures, $0.slowest) }
            }
        }

        func withSteadyClient(_ agent: AgentFixture, _ misbehave: @escaping @Sendable () throws -> Void) async throws {
            let expected = try #require(try await agent.profiles.storedAccessToken())
            let steady = SteadyClient(socketPath: agent.socketPath, expected: expected)
            let started = ContinuousClock.now
            try await OffPool.run(misbehave)
            // At least half a second of steady requests, whatever the misbehaviour took.
            try await Task.sleep(until: started + .milliseconds(500))
            let outcome = await steady.stop()
            #expect(outcome.failures == 0)
            #expect(outcome.answers >= 1)
            #expect(outcome.slowest < .seconds(1))
        }

        @Test func garbageIsAnsweredBadRequest() async throws {
            try await withAgent { agent in
                let path = agent.socketPath
                try await withSteadyClient(agent) {
                    var generator = SystemRandomNumberGenerator()
                    for _ in 0..<50 {
                        let connection = try RawConnection(path: path)
                        var noise = (0..<Int.random(in: 1...4000, using: &generator)).map { _ in
                            UInt8.random(in: 0...255, using: &generator)
                        }
                        noise.removeAll { $0 == 0x0A }
                        connection.send(noise + [0x0A])
                        let reply = try connection.readLine()
                        #expect(try errorCode(reply) == "badRequest")
                        connection.send(#"{"v":1,"op":"ping"}"# + "\n")
                        #expect(try object(try connection.readLine())["ok"] as? Bool == true)
                    }
                }
            }
        }

        @Test func aTenMegabyteLineIsRefusedAndClosed() async throws {
            try await withAgent { agent in
                let path = agent.socketPath
                try await withSteadyClient(agent) {
                    let connection = try RawConnection(path: path)
                    let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
                    // The agent stops reading at 64 KiB: the rest of the write fails, which is the point.
                    let sender = Thread { connection.send(huge) }
                    sender.start()
                    let reply = try connection.readLine(timeout: 10)
                    #expect(try errorCode(reply) == "badRequest")
                    #expect(reply.contains("longer than 65536 bytes"))
                    #expect(connection.closesWithin(5))
                }
                #expect(agent.log.contains("over 65536 bytes"))
            }
        }

        @Test func aClientSendingOneByteASecondIsCutOffAtTheDeadline() async throws {
            var limits = AgentServer.Limits()
            limits.readTimeout = .seconds(2)
            try await withAgent(limits: limits) { agent in
                let path = agent.socketPath
                try await withSteadyClient(agent) {
                    let connection = try RawConnection(path: path)
                    let started = Date()
                    var cutOff = false
                    for byte in Array(#"{"v":1,"op":"ping"}"#.utf8) {
                        guard connection.send([byte]) else {
                            cutOff = true
                            break
                        }
                        if !connection.closesWithin(1.0) { continue }
                        cutOff = true
                        break
                    }
                    #expect(cutOff)
                    let elapsed = Date().timeIntervalSince(started)
                    #expect(elapsed > 1.5 && elapsed < 4)
                }
                #expect(agent.log.contains("no complete request within"))
            }
        }

        @Test func abruptDisconnectsAndManyConnectionsLeaveOthersServed() async throws {
            try await withAgent { agent in
                let path = agent.socketPath
                try await withSteadyClient(agent) {
                    for round in 0..<200 {
                        let connection = try RawConnection(path: path)
                        switch round % 3 {
                        case 0:
                            // A whole request, and leave before the reply.
                            connection.send(#"{"v":1,"op":"token","profile":"work"}"# + "\n")
                        case 1: connection.send(#"{"v":1,"op":"tok"#)  // half a request
                        default: break  // nothing at all
                        }
                        shutdown(connection.descriptor, Int32(SHUT_RDWR))
                    }
                    // A hundred idle connections held open at once.
                    let idle = try (0..<100).map { _ in try RawConnection(path: path) }
                    let extra = try RawConnection(path: path)
                    extra.send(#"{"v":1,"op":"ping"}"# + "\n")
                    #expect(try object(try extra.readLine())["ok"] as? Bool == true)
                    withExtendedLifetime(idle) {}
                }
            }
        }

        @Test func connectionsBeyondTheCapAreRefusedAndLogged() async throws {
            var limits = AgentServer.Limits()
            limits.maximumConnections = 4
            try await withAgent(limits: limits) { agent in
                let path = agent.socketPath
                try await OffPool.run {
                    var held = try (0..<4).map { _ in try RawConnection(path: path) }
                    for connection in held {
                        connection.send(#"{"v":1,"op":"ping"}"# + "\n")
                        _ = try connection.readLine()
                    }
                    let refused = try RawConnection(path: path)
                    #expect(refused.closesWithin(2))
                    held.removeAll()
                    // Once those have gone, the agent admits again.
                    var admitted = false
                    for _ in 0..<100 where !admitted {
                        admitted = (try? AgentClient(socketPath: path).ping()) != nil
                        if !admitted { usleep(20_000) }
                    }
                    #expect(admitted)
                }
                #expect(agent.log.contains("4 connections are open already"))
            }
        }
    }
}
