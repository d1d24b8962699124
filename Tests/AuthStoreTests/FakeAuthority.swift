import AuthCrypto
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport
import TokenVault

@testable import AuthStore

/// Scripted answers from "Cognito", counting the calls: fault injection for the store's own logic. The store
/// against the real client and moto is tested elsewhere.
final class FakeAuthority: SessionAuthority {
    enum RefreshBehaviour: Sendable {
        case succeed(rotating: Bool)
        case fail(CognitoError)
    }

    struct Calls: Sendable {
        var signIn = 0, respond = 0, refresh = 0, revoke = 0, globalSignOut = 0, setup = 0
        var refreshTokensSeen: [String] = []
        var refreshOrigins: [SessionOrigin] = []
        var revokedTokens: [String] = []
        /// Refreshes that found their task cancelled when their answer came.
        var cancelledRefreshes = 0
    }

    /// Hold refreshes, or answers to challenges, on their way until the test lets them through.
    let refreshGate = Gate()
    let respondGate = Gate()

    let clock: TestClock
    let lifetime: Double
    private let state = Locked<
        (behaviour: RefreshBehaviour, calls: Calls, generation: Int, challenges: [ChallengeKind], delay: Duration)
    >(
        (.succeed(rotating: false), Calls(), 0, [], .milliseconds(20)))

    init(clock: TestClock, lifetime: Double = 3600) {
        self.clock = clock
        self.lifetime = lifetime
    }

    func setRefresh(_ behaviour: RefreshBehaviour) { state.withLock { $0.behaviour = behaviour } }
    /// Challenges the next sign-in asks, in order, before it succeeds.
    func setChallenges(_ kinds: [ChallengeKind]) { state.withLock { $0.challenges = kinds } }
    var calls: Calls { state.withLock { $0.calls } }

    func tokens(refreshToken: SecretBytes? = nil) -> CognitoTokens {
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

    private func nextStep() -> SignInStep {
        let kind: ChallengeKind? = state.withLock { $0.challenges.isEmpty ? nil : $0.challenges.removeFirst() }
        guard let kind else { return .signedIn(tokens()) }
        return .challenge(
            AuthChallenge(
                kind: kind, session: SecretBytes(utf8: "session"), expiresAt: clock.reading + 180,
                username: "alice-internal", parameters: [:]))
    }

    func signIn(username: String, method: SignInMethod, device: RememberedDevice?) async throws(CognitoError)
        -> SignInStep
    {
        state.withLock { $0.calls.signIn += 1 }
        guard case .password(let password, _) = method, password == SecretBytes(utf8: "correct horse") else {
            throw .notAuthorized(message: "Incorrect username or password.")
        }
        return try devices.signIn(with: device, step: nextStep())
    }

    /// Remembered devices, as Cognito treats them: scripted apart from the rest.
    let devices = FakeDevices()

    func confirmDevice(
        _ newDevice: NewDeviceMetadata, name: String, accessToken: SecretBytes
    ) async throws(CognitoError) -> (device: RememberedDevice, userConfirmationNecessary: Bool) {
        devices.confirm(newDevice, name: name)
    }

    func setDeviceRemembered(_ remembered: Bool, deviceKey: String, accessToken: SecretBytes) async throws(CognitoError)
    {
        devices.setRemembered(remembered, key: deviceKey)
    }

    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep {
        state.withLock { $0.calls.respond += 1 }
        await respondGate.pass()
        if case .code(let code) = answer, code != SecretBytes(utf8: "123456") {
            throw .codeMismatch(message: "Invalid code received for user")
        }
        return nextStep()
    }

    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup {
        state.withLock { $0.calls.setup += 1 }
        throw .invalidParameter(message: "not scripted")
    }

    func refresh(_ session: StoredSession) async throws(CognitoError) -> CognitoTokens {
        let refreshToken = session.refreshToken
        let (behaviour, delay) = state.withLock { state -> (RefreshBehaviour, Duration) in
            state.calls.refresh += 1
            state.calls.refreshTokensSeen.append(refreshToken.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
            state.calls.refreshOrigins.append(session.origin)
            return (state.behaviour, state.delay)
        }
        try? await Task.sleep(for: delay)
        await refreshGate.pass()
        if Task.isCancelled { state.withLock { $0.calls.cancelledRefreshes += 1 } }
        switch behaviour {
        case .succeed(let rotating): return tokens(refreshToken: rotating ? nil : refreshToken)
        case .fail(let error): throw error
        }
    }

    /// Failures the next revocations answer with, in order; later ones succeed.
    private let revokeFailures = Locked<[CognitoError]>([])
    func failRevocations(_ failures: [CognitoError]) { revokeFailures.withLock { $0 = failures } }

    func revoke(_ session: StoredSession) async throws(CognitoError) {
        let refreshToken = session.refreshToken
        state.withLock { $0.calls.revoke += 1 }
        if let failure = revokeFailures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
        state.withLock {
            $0.calls.revokedTokens.append(refreshToken.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
        }
    }

    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError) {
        state.withLock { $0.calls.globalSignOut += 1 }
        throw .network(.cannotConnect("127.0.0.1:9"))
    }
}

/// Holds the calls that reach it while closed, like a slow network call that does not heed cancellation, and counts
/// the calls that reached it.
final class Gate: Sendable {
    private let state = Locked<(closed: Bool, arrived: Int, held: [CheckedContinuation<Void, Never>])>((false, 0, []))

    func close() { state.withLock { $0.closed = true } }

    func open() {
        let held = state.withLock { state in
            state.closed = false
            defer { state.held = [] }
            return state.held
        }
        for call in held { call.resume() }
    }

    func pass() async {
        await withCheckedContinuation { call in
            let through = state.withLock { state in
                state.arrived += 1
                if state.closed { state.held.append(call) }
                return !state.closed
            }
            if through { call.resume() }
        }
    }

    /// How many calls have reached the gate.
    var arrivals: Int { state.withLock { $0.arrived } }
}
