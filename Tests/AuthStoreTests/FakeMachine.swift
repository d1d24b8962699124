import AuthCrypto
import CognitoAuth
import SystemPlumbing
import TestSupport
import TokenVault

@testable import AuthStore

/// A scripted token endpoint for machine profiles: each fetch answers a new token (`machine-1`, `machine-2`, ...)
/// living `lifetime` seconds from the test clock's now, or fails as told; fetches can be held at a gate.
final class FakeMachine: MachineAuthority {
    let clock: TestClock
    let lifetime: Double
    let gate = Gate()
    private let state = Locked<(fetches: Int, failure: CognitoError?)>((0, nil))

    init(clock: TestClock, lifetime: Double = 3600) {
        self.clock = clock
        self.lifetime = lifetime
    }

    var fetches: Int { state.withLock { $0.fetches } }
    func fail(with error: CognitoError?) { state.withLock { $0.failure = error } }

    func machineToken() async throws(CognitoError) -> MachineToken {
        await gate.pass()
        let (count, failure) = state.withLock { state in
            state.fetches += 1
            return (state.fetches, state.failure)
        }
        if let failure { throw failure }
        let now = clock.reading
        return MachineToken(
            accessToken: SecretBytes(
                utf8: fakeJWT(issuedAt: now, expiresAt: now + lifetime, marker: "machine-\(count)")),
            expiresAt: now + lifetime, issuedAt: now, clientId: "ci-client", scopes: ["api/read"])
    }
}
