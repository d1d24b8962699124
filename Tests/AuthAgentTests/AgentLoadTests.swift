import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// Many clients at once: all get valid tokens, and a session near expiry is refreshed exactly once.
    /// The figures printed are for the lead's benchmark notes (AGENT_HAMMER_SECONDS sets the duration).
    @Suite struct AgentLoadTests {
        struct Figures {
            let valid: Int
            let invalid: Int
            let perThread: [Int]
            let tokensPerSecond: Int
            let p50: Double
            let p99: Double

            var summary: String {
                "\(tokensPerSecond) tokens/s, p50 \(String(format: "%.3f", p50)) ms, p99 \(String(format: "%.3f", p99)) ms"
            }
        }

        static let seconds = Double(ProcessInfo.processInfo.environment["AGENT_HAMMER_SECONDS"] ?? "") ?? 3

        /// `clients` threads, each asking with the requester it makes (the token text, or nil), for `seconds`.
        func hammer(_ clients: Int, expected: String, makeRequester: @escaping @Sendable () -> () -> String?) async
            -> Figures
        {
            let seconds = Self.seconds
            let started = Date()
            let results = await onThreads(clients) { _ -> (valid: Int, invalid: Int, milliseconds: [Double]) in
                let request = makeRequester()
                var valid = 0
                var invalid = 0
                var milliseconds: [Double] = []
                milliseconds.reserveCapacity(200_000)
                while Date().timeIntervalSince(started) < seconds {
                    let begin = ContinuousClock.now
                    let token = request()
                    let (whole, fraction) = (ContinuousClock.now - begin).components
                    milliseconds.append(Double(whole) * 1000 + Double(fraction) / 1e15)
                    if token == expected { valid += 1 } else { invalid += 1 }
                }
                return (valid, invalid, milliseconds)
            }
            let elapsed = Date().timeIntervalSince(started)
            let sorted = results.flatMap(\.milliseconds).sorted()
            let valid = results.map(\.valid).reduce(0, +)
            return Figures(
                valid: valid, invalid: results.map(\.invalid).reduce(0, +), perThread: results.map(\.valid),
                tokensPerSecond: Int(Double(valid) / elapsed), p50: sorted[sorted.count / 2],
                p99: sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
        }

        @Test func sixteenClientsHammeringAllGetValidTokens() async throws {
            try await withAgent { agent in
                let expected = try #require(try await agent.profiles.storedAccessToken())
                let path = agent.socketPath
                // A connection per request, as `authvault token` makes it.
                let figures = await hammer(16, expected: expected) {
                    let client = AgentClient(socketPath: path)
                    return { (try? client.token(profile: "work")).map { text($0.token) } }
                }
                #expect(figures.invalid == 0)
                #expect(figures.perThread.allSatisfy { $0 > 0 })
                #expect(agent.authority.refreshCount == 0)
                print("agent, 16 clients, a connection per request: \(figures.summary)")
            }
        }

        @Test func sixteenClientsKeepingTheirConnectionAllGetValidTokens() async throws {
            try await withAgent { agent in
                let expected = try #require(try await agent.profiles.storedAccessToken())
                let path = agent.socketPath
                let line = #"{"v":1,"op":"token","profile":"work"}"# + "\n"
                let figures = await hammer(16, expected: expected) {
                    let connection = try? RawConnection(path: path)
                    return {
                        guard let connection, connection.send(line), let reply = try? connection.readLine() else {
                            return nil
                        }
                        return (try? object(reply))?["token"] as? String
                    }
                }
                #expect(figures.invalid == 0)
                #expect(figures.perThread.allSatisfy { $0 > 0 })
                print("agent, 16 clients, one connection each: \(figures.summary)")
            }
        }

        @Test func fiftyClientsOnAnExpiringSessionCauseExactlyOneRefresh() async throws {
            try await withAgent { agent in
                let path = agent.socketPath
                let before = try #require(try await agent.profiles.storedAccessToken())
                // Warm the cache.
                _ = try await OffPool.run { try AgentClient(socketPath: path).token(profile: "work") }
                agent.clock.advance(by: 3590)  // 10 s left: inside the mandatory window
                let tokens = await onThreads(50) { _ in
                    (try? AgentClient(socketPath: path, timeout: .seconds(5)).token(profile: "work")).map {
                        text($0.token)
                    }
                }
                #expect(agent.authority.refreshCount == 1)
                #expect(Set(tokens).count == 1)
                let after = try await agent.profiles.storedAccessToken()
                #expect(tokens.first! == after)
                #expect(after != before)
            }
        }
    }
}
