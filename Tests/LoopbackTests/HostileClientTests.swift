import Foundation
import Loopback
import Synchronization
import TestSupport
import Testing

/// Clients that misbehave on purpose must not hold up the real callback.
@Suite struct HostileClientTests {
    /// Sends one byte a second until the server answers, `stop` is set or `seconds` have passed, then reads the
    /// response, if any.
    private static func trickle(port: Int, stop: Box, seconds: Int) throws -> (status: Int?, elapsed: Duration) {
        let connection = try RawConnection(host: "127.0.0.1", port: port, timeout: seconds + 5)
        let started = ContinuousClock.now
        for byte in "GET /callback?code=slow&state=xyz HTTP/1.1\r\n".prefix(seconds) {
            if stop.flag.load(ordering: .relaxed) { break }
            guard (try? connection.send(String(byte))) != nil else { break }
            var answered = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&answered, 1, 1000) > 0 { break }
        }
        let status = try? connection.readResponse().status
        return (status, ContinuousClock.now - started)
    }

    @Test func aClientSendingOneByteASecondDoesNotBlockTheCallback() async throws {
        let fixture = try ListenerFixture()
        let port = fixture.port
        let stop = Box()
        let slow = Task { try await OffPool.run { try Self.trickle(port: port, stop: stop, seconds: 6) } }
        try await Task.sleep(for: .milliseconds(300))

        let started = ContinuousClock.now
        async let browser = Browser.get(fixture.callbackTarget, port: port)
        let callback = try await fixture.listener.waitForCallback()
        // Blocked behind the trickle, the callback would wait for its 5 s read deadline; a loaded machine may
        // still take a second or two to run the browser.
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(callback.code == ListenerFixture.code)
        callback.respond(with: .success("ok"))
        #expect(try await browser.status == 200)
        stop.flag.store(true, ordering: .relaxed)
        _ = try await slow.value
    }

    @Test func aSlowRequestIsCutOffAtItsReadDeadline() async throws {
        let fixture = try ListenerFixture(limits: .init(readDeadline: .seconds(1)))
        let port = fixture.port
        let stop = Box()
        let slow = try await OffPool.run { try Self.trickle(port: port, stop: stop, seconds: 4) }
        #expect(slow.status == 408)
        #expect(slow.elapsed < .seconds(3))

        async let browser = Browser.get(fixture.callbackTarget, port: port)
        #expect(try await fixture.listener.waitForCallback().code == ListenerFixture.code)
        _ = try await browser
    }

    @Test func anOversizedHeaderIsRefusedAndTheWaitGoesOn() async throws {
        let fixture = try ListenerFixture()
        let filler = String(repeating: "a", count: 20 * 1024)
        let refused = try await Browser.get(
            fixture.callbackTarget, port: fixture.port, extraHeaders: "Cookie: \(filler)\r\n")
        #expect(refused.status == 431)
        #expect(refused.hasPageHeaders)

        // A large but allowed head (8 KB of cookies) is served.
        let cookie = String(repeating: "b", count: 8 * 1024)
        async let browser = Browser.get(
            fixture.callbackTarget, port: fixture.port, extraHeaders: "Cookie: \(cookie)\r\n")
        let callback = try await fixture.listener.waitForCallback()
        callback.respond(with: .success("ok"))
        #expect(try await browser.status == 200)
    }

    @Test func manyIdleConnectionsDoNotBlockTheCallback() async throws {
        let fixture = try ListenerFixture(limits: .init(maximumConnections: 8))
        let port = fixture.port
        let idle = try await OffPool.run { try (0..<20).map { _ in try RawConnection(host: "127.0.0.1", port: port) } }
        try await Task.sleep(for: .milliseconds(100))
        async let browser = Browser.get(fixture.callbackTarget, port: port)
        #expect(try await fixture.listener.waitForCallback().code == ListenerFixture.code)
        _ = try await browser
        withExtendedLifetime(idle) {}
    }
}

private final class Box: Sendable {
    let flag = Atomic(false)
}
