import Foundation
import Loopback
import TestSupport
import Testing

@Suite struct LoopbackListenerTests {
    @Test func browserCallbackDeliversTheCodeAndTheFinalPage() async throws {
        let fixture = try ListenerFixture()
        #expect(fixture.listener.redirectURI == fixture.uri)
        // curl is the browser here: an HTTP client independent of this code.
        let url = "http://127.0.0.1:\(fixture.port)\(fixture.callbackTarget)"
        async let browser = OffPool.run {
            try ProcessRunner.run("curl", ["-sS", "-i", "--max-time", "10", url], timeout: 15)
        }
        let callback = try await fixture.listener.waitForCallback()
        #expect(callback.code == ListenerFixture.code)
        #expect(callback.url == url)
        #expect(callback.urlWithoutQuery == fixture.uri)
        for text in [
            callback.description, String(reflecting: callback),
            String(describing: Mirror(reflecting: callback).children.map(\.value)),
        ] {
            #expect(!text.contains(ListenerFixture.code))
        }

        #expect(callback.respond(with: .success("Signed in as <alice>@example.com — you can close this tab")))
        #expect(!callback.respond(with: .failure("too late")))
        let output = try await browser
        #expect(output.status == 0)
        let response = output.stdoutText.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(response.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(response.contains("\nCache-Control: no-store\n"))
        #expect(response.contains("\nConnection: close\n"))
        #expect(response.contains("\nContent-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\n"))
        #expect(response.contains("<p>Signed in as &lt;alice&gt;@example.com — you can close this tab</p>"))
    }

    @Test func strayRequestsAreAnsweredAndTheWaitGoesOn() async throws {
        let fixture = try ListenerFixture()
        let waiting = waitingTask(fixture.listener)
        let port = fixture.port
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let callbackLine = "GET \(fixture.callbackTarget) HTTP/1.1\r\n"
        let strays: [(request: String, status: Int)] = [
            ("GET /favicon.ico HTTP/1.1\r\n\(host)\r\n", 404),
            ("GET /other/path?code=\(ListenerFixture.code)&state=xyz HTTP/1.1\r\n\(host)\r\n", 404),
            ("GET /callback?code=\(ListenerFixture.code)&state=wrong HTTP/1.1\r\n\(host)\r\n", 400),
            ("GET /callback?code=\(ListenerFixture.code) HTTP/1.1\r\n\(host)\r\n", 400),
            ("GET /callback?error=access_denied&state=wrong HTTP/1.1\r\n\(host)\r\n", 400),
            ("POST \(fixture.callbackTarget) HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n", 400),
            ("SSH-2.0-OpenSSH_9.2\r\n\r\n", 400),
            // The callback itself, for a name re-pointed at 127.0.0.1 (DNS rebinding), without a name, or twice.
            (callbackLine + "Host: attacker.example:\(port)\r\n\r\n", 403),
            (callbackLine + "Host: 127.0.0.1\r\n\r\n", 403),
            (callbackLine + "Host: localhost:\(port)\r\n\r\n", 403),
            (callbackLine + "\r\n", 400),
            (callbackLine + host + host + "\r\n", 400),
        ]
        for stray in strays {
            let response = try await Browser.send(stray.request, port: port)
            #expect(response.status == stray.status, "\(stray.request.debugDescription)")
            #expect(response.hasPageHeaders)
        }
        // A probe that connects and hangs up at once.
        _ = try await OffPool.run { try RawConnection(host: "127.0.0.1", port: port) }

        async let browser = Browser.get(fixture.callbackTarget, port: port)
        let callback = try await waiting.value
        #expect(callback.code == ListenerFixture.code)
        callback.respond(with: .success("done"))
        #expect(try await browser.status == 200)
    }

    @Test func accessDeniedEndsTheWaitWithTheError() async throws {
        let fixture = try ListenerFixture()
        let waiting = waitingTask(fixture.listener)
        let response = try await Browser.get(
            "/callback?error=access_denied&error_description=User%20cancelled%20login&state=xyz", port: fixture.port)
        #expect(response.status == 200)
        #expect(response.hasPageHeaders)
        #expect(response.body.contains("Sign-in failed"))
        await #expect(
            throws: LoopbackError.authorizationDenied(error: "access_denied", description: "User cancelled login")
        ) {
            try await waiting.value
        }
        let description = LoopbackError.authorizationDenied(error: "access_denied", description: "User cancelled login")
            .description
        #expect(description.contains("refused"))
        #expect(description.contains("User cancelled login"))
        #expect(try !LoopbackPorts.listening().contains("127.0.0.1:\(fixture.port)"))
    }

    @Test func noCallbackInTimeEndsWithTimedOutAndFreesThePort() async throws {
        let fixture = try ListenerFixture(timeout: .milliseconds(300))
        let started = ContinuousClock.now
        await #expect(throws: LoopbackError.timedOut) { try await fixture.listener.waitForCallback() }
        // Bounded by the 300 ms time-out, with room for a loaded machine; without one it would wait 3 minutes.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try !LoopbackPorts.listening().contains("127.0.0.1:\(fixture.port)"))
    }

    @Test func cancelFromAnotherThreadEndsTheWaitAndFreesThePort() async throws {
        let fixture = try ListenerFixture()
        let waiting = waitingTask(fixture.listener)
        try await Task.sleep(for: .milliseconds(50))
        let listener = fixture.listener
        let port = fixture.port
        // From a plain thread, as the relay of a Ctrl-C handler would call it.
        try await OffPool.run { listener.cancel() }
        await #expect(throws: LoopbackError.cancelled) { try await waiting.value }
        // Free even for a program that binds without SO_REUSEADDR.
        #expect(try PortHolder(host: "127.0.0.1", port: port).port == port)
        await #expect(throws: LoopbackError.cancelled) { try await listener.waitForCallback() }
    }

    @Test func aNewListenerGetsThePortTheMomentCancelReturns() async throws {
        let fixture = try ListenerFixture()
        fixture.listener.cancel()
        let again = try LoopbackListener(redirectURIs: [fixture.uri], state: "other")
        #expect(again.redirectURI == fixture.uri)
        #expect(try LoopbackPorts.listening().contains("127.0.0.1:\(fixture.port)"))
        await #expect(throws: LoopbackError.cancelled) { try await fixture.listener.waitForCallback() }
    }

    @Test func cancellingTheWaitingTaskCancelsTheListener() async throws {
        let fixture = try ListenerFixture()
        let waiting = waitingTask(fixture.listener)
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: LoopbackError.cancelled) { try await waiting.value }
        #expect(try !LoopbackPorts.listening().contains("127.0.0.1:\(fixture.port)"))
    }

    @Test func anUnansweredCallbackGetsTheDefaultPageWhenReleased() async throws {
        let fixture = try ListenerFixture()
        async let browser = Browser.get(fixture.callbackTarget, port: fixture.port)
        // Released at once, while the listener lives on.
        #expect(try await fixture.listener.waitForCallback().code == ListenerFixture.code)
        let response = try await browser
        #expect(response.status == 200)
        #expect(response.hasPageHeaders)
        #expect(response.body.contains("Sign-in response received"))
    }

    @Test func aCallbackThatArrivesBeforeTheWaitIsKeptForIt() async throws {
        let fixture = try ListenerFixture()
        async let browser = Browser.get(fixture.callbackTarget, port: fixture.port)
        try await Task.sleep(for: .milliseconds(300))
        let callback = try await fixture.listener.waitForCallback()
        #expect(callback.respond(with: .success("kept")))
        #expect(try await browser.body.contains("kept"))
    }

    @Test func theDefaultPageIsSentWhenTheCallerTakesTooLong() async throws {
        let fixture = try ListenerFixture(limits: .init(answerTimeout: .milliseconds(300)))
        async let browser = Browser.get(fixture.callbackTarget, port: fixture.port)
        let callback = try await fixture.listener.waitForCallback()
        let response = try await browser
        #expect(response.body.contains("Sign-in response received"))
        #expect(!callback.respond(with: .success("late")))
    }
}
