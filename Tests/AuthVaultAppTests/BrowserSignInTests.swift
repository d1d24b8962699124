import AuthVaultApp
import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// The browser sign-in's listener, owned by the application: the presenter is shown the request redirected to the
/// port it listens on, a cancel ends the wait (even one that came before the listener existed), and the presenter
/// is told the wait ended either way; nothing is stored.
@Suite struct BrowserSignInTests {
    /// What the presenter saw, and a cancel it fires when it is shown the request (a Ctrl-C at the countdown).
    final class RecordingPresenter: BrowserSignInPresenter {
        let shown = Locked<[String]>([])
        let ended = Locked(0)
        let cancelOnShow: BrowserSignInCancel?

        init(cancelOnShow: BrowserSignInCancel?) { self.cancelOnShow = cancelOnShow }

        func listening(_ request: OAuthAuthorizationRequest, timeout: Duration) {
            shown.withLock { $0.append(request.redirectURI) }
            cancelOnShow?.fire()
        }

        func waitEnded() { ended.withLock { $0 += 1 } }
    }

    private func signIn(port: UInt16, in directory: TemporaryDirectory) throws -> BrowserSignIn {
        var settings = ProfileSettings.openIDProvider(issuer: "https://idp.example.com", clientId: "client1")
        var endpoints = OAuthEndpointSettings()
        endpoints.authorization = "https://idp.example.com/authorize"
        endpoints.token = "https://idp.example.com/token"
        settings.oauthEndpoints = endpoints
        settings.redirectURIs = ["http://127.0.0.1:\(port)/callback"]
        let session = try ProfileSession.open(
            settings: settings,
            vault: .encryptedFile(
                directory: directory.appending("vault"),
                passphrase: .fixed(SecretBytes(utf8: "browser sign-in test"))))
        return BrowserSignIn(session: session, identityProvider: nil, timeout: .seconds(30))
    }

    private func expectCancelled(_ body: () async throws(BrowserSignInError) -> SessionSummary) async {
        do {
            _ = try await body()
            Issue.record("the sign-in went on")
        } catch {
            guard case .failed(.cancelled) = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func theListenerIsShownAndACancelEndsTheWait() async throws {
        let port = FreeLoopbackPorts.run(of: 1)[0]
        let directory = try TemporaryDirectory()
        let signIn = try signIn(port: port, in: directory)
        let cancel = BrowserSignInCancel()
        let presenter = RecordingPresenter(cancelOnShow: cancel)
        await expectCancelled { () async throws(BrowserSignInError) in
            try await signIn.signInThroughListener(presenter: presenter, cancel: cancel)
        }
        #expect(presenter.shown.withLock { $0 } == ["http://127.0.0.1:\(port)/callback"])
        #expect(presenter.ended.withLock { $0 } == 1)
        #expect(await signIn.session.state() == .signedOut)
    }

    /// A Ctrl-C while the port was still being bound: the listener is cancelled as soon as it exists.
    @Test func aCancelBeforeTheListenerExistsCancelsItAtOnce() async throws {
        let port = FreeLoopbackPorts.run(of: 1)[0]
        let directory = try TemporaryDirectory()
        let signIn = try signIn(port: port, in: directory)
        let cancel = BrowserSignInCancel()
        cancel.fire()
        let presenter = RecordingPresenter(cancelOnShow: nil)
        await expectCancelled { () async throws(BrowserSignInError) in
            try await signIn.signInThroughListener(presenter: presenter, cancel: cancel)
        }
        #expect(presenter.ended.withLock { $0 } == 1)
    }
}
