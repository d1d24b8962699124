import AuthCrypto
import AuthStore
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport

/// "Cognito" for the agent's stores, after the AuthStore tests' fake: signs in "alice" with "correct horse",
/// refreshes after a delay (so concurrent callers overlap), and counts refreshes.
final class FakeAuthority: SessionAuthority {
    let clock: TestClock
    let lifetime: Double
    private let state = Locked<(refreshes: Int, generation: Int, failure: CognitoError?, delay: Duration)>(
        (0, 0, nil, .milliseconds(200)))

    init(clock: TestClock, lifetime: Double = 3600) {
        self.clock = clock
        self.lifetime = lifetime
    }

    var refreshCount: Int { state.withLock { $0.refreshes } }
    func failRefreshes(with error: CognitoError?) { state.withLock { $0.failure = error } }
    func setRefreshDelay(_ delay: Duration) { state.withLock { $0.delay = delay } }

    private func tokens(refreshToken: SecretBytes?) -> CognitoTokens {
        let generation = state.withLock {
            $0.generation += 1
            return $0.generation
        }
        let issued = clock.reading
        let expires = clock.reading + lifetime
        return CognitoTokens(
            idToken: SecretBytes(utf8: fakeJWT(issuedAt: issued, expiresAt: expires, marker: "id-\(generation)")),
            accessToken: SecretBytes(
                utf8: fakeJWT(issuedAt: issued, expiresAt: expires, marker: "access-\(generation)")),
            refreshToken: refreshToken ?? SecretBytes(utf8: "refresh-\(generation)"),
            idTokenExpiresAt: expires, accessTokenExpiresAt: expires,
            identity: VerifiedIdentity(username: "alice-internal", subject: "sub-1", email: "alice@example.com"))
    }

    func signIn(username: String, method: SignInMethod, device: RememberedDevice?) async throws(CognitoError)
        -> SignInStep
    {
        guard case .password(let password, _) = method, password == SecretBytes(utf8: "correct horse") else {
            throw .notAuthorized(message: "Incorrect username or password.")
        }
        return .signedIn(tokens(refreshToken: nil))
    }

    func confirmDevice(
        _ newDevice: NewDeviceMetadata, name: String, accessToken: SecretBytes
    ) async throws(CognitoError) -> (device: RememberedDevice, userConfirmationNecessary: Bool) {
        throw .invalidConfiguration("the agent's tests confirm no device")
    }

    func setDeviceRemembered(_ remembered: Bool, deviceKey: String, accessToken: SecretBytes) async throws(CognitoError)
    {
        throw .invalidConfiguration("the agent's tests remember no device")
    }

    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep {
        throw .invalidParameter(message: "not scripted")
    }

    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup {
        throw .invalidParameter(message: "not scripted")
    }

    func refresh(_ session: StoredSession) async throws(CognitoError) -> CognitoTokens {
        let refreshToken = session.refreshToken
        let (failure, delay) = state.withLock { state -> (CognitoError?, Duration) in
            state.refreshes += 1
            return (state.failure, state.delay)
        }
        try? await Task.sleep(for: delay)
        if let failure { throw failure }
        return tokens(refreshToken: refreshToken)
    }

    func revoke(_ session: StoredSession) async throws(CognitoError) {}

    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError) {}
}
