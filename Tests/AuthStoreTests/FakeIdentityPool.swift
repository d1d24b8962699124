import AuthCrypto
import CognitoAuth
import SystemPlumbing
import TestSupport
import TokenVault

@testable import AuthStore

/// A scripted identity pool counting its calls: credentials that last `lifetime` seconds on the test's clock,
/// identities it may have forgotten, and failures on demand.
final class FakeIdentityPool: IdentityPoolAuthority {
    struct Calls: Sendable {
        var getId = 0, credentials = 0
        /// The ID token of each call's login, or "guest".
        var logins: [String] = []
        var identitiesAsked: [String] = []
    }

    let clock: TestClock
    let lifetime: Double
    private let state = Locked<(calls: Calls, forgotten: Set<String>, failure: CognitoError?, nextIdentity: Int)>(
        (Calls(), [], nil, 1))
    private let configured = Locked(
        AWSCredentialScope(identityPoolId: "us-east-1:00000000-0000-4000-8000-00000000000a", roleARN: nil))

    init(clock: TestClock, lifetime: Double = 3600) {
        self.clock = clock
        self.lifetime = lifetime
    }

    var calls: Calls { state.withLock { $0.calls } }
    var scope: AWSCredentialScope { configured.withLock { $0 } }
    /// What `authvault configure` does to the profile: another pool or role from now on.
    func repoint(to scope: AWSCredentialScope) { configured.withLock { $0 = scope } }
    func forget(_ identityId: String) { state.withLock { _ = $0.forgotten.insert(identityId) } }
    func fail(with error: CognitoError?) { state.withLock { $0.failure = error } }

    private func record(_ login: IdentityProviderLogin?) {
        let text = login.map { $0.idToken.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } } ?? "guest"
        state.withLock { $0.calls.logins.append(text) }
    }

    func identityId(login: IdentityProviderLogin?) async throws(CognitoError) -> String {
        record(login)
        let (failure, number) = state.withLock { state in
            state.calls.getId += 1
            state.nextIdentity += 1
            return (state.failure, state.nextIdentity - 1)
        }
        if let failure { throw failure }
        return "us-east-1:00000000-0000-0000-0000-\(String(number).leftPadded(to: 12))"
    }

    func credentials(identityId: String, login: IdentityProviderLogin?) async throws(CognitoError) -> AWSCredentials {
        record(login)
        let (failure, forgotten, number) = state.withLock { state in
            state.calls.credentials += 1
            state.calls.identitiesAsked.append(identityId)
            return (state.failure, state.forgotten.contains(identityId), state.calls.credentials)
        }
        // Other callers may pile up meanwhile: this is a network call.
        try? await Task.sleep(for: .milliseconds(30))
        if let failure { throw failure }
        if forgotten { throw .identityPoolNotFound(message: "Identity '\(identityId)' not found.") }
        return AWSCredentials(
            accessKeyId: "ASIAFAKE\(number)", secretAccessKey: SecretBytes(utf8: "secret-key-\(number)"),
            sessionToken: SecretBytes(utf8: "session-token-\(number)"), expiresAt: clock.reading + lifetime,
            identityId: identityId)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
