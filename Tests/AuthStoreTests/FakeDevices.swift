import AuthCrypto
import CognitoAuth
import SystemPlumbing

/// The devices part of the scripted authority: a sign-in without a device reports a new one; a sign-in with a
/// device Cognito knows proves it; one it forgot is refused with ResourceNotFoundException, as Cognito does.
final class FakeDevices: Sendable {
    struct State: Sendable {
        /// Devices confirmed, by key: their name and whether they are remembered.
        var known: [String: (name: String, remembered: Bool)] = [:]
        /// The device each sign-in came with (nil: none).
        var signIns: [String?] = []
        var next = 1
        /// The pool leaves remembering to the user.
        var userDecides = false
    }

    private let state = Locked(State())

    var snapshot: State { state.withLock { $0 } }
    func leaveRememberingToTheUser() { state.withLock { $0.userDecides = true } }
    func forgetAtCognito(_ key: String) { state.withLock { _ = $0.known.removeValue(forKey: key) } }

    func signIn(with device: RememberedDevice?, step: SignInStep) throws(CognitoError) -> SignInStep {
        let known = state.withLock { state -> Bool in
            state.signIns.append(device?.key)
            return device.map { state.known[$0.key] != nil } ?? false
        }
        if device != nil, !known { throw .resourceNotFound(message: "Device does not exist.") }
        guard device == nil, case .signedIn(let tokens) = step else { return step }
        let number = state.withLock {
            $0.next += 1
            return $0.next - 1
        }
        return .signedIn(
            CognitoTokens(
                idToken: tokens.idToken, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                idTokenExpiresAt: tokens.idTokenExpiresAt, accessTokenExpiresAt: tokens.accessTokenExpiresAt,
                identity: tokens.identity,
                newDevice: NewDeviceMetadata(deviceKey: "us-east-1_device-\(number)", deviceGroupKey: "-group")))
    }

    func confirm(_ newDevice: NewDeviceMetadata, name: String) -> (
        device: RememberedDevice, userConfirmationNecessary: Bool
    ) {
        let userDecides = state.withLock { state in
            state.known[newDevice.deviceKey] = (name, !state.userDecides)
            return state.userDecides
        }
        return (
            RememberedDevice(
                key: newDevice.deviceKey, groupKey: newDevice.deviceGroupKey,
                password: SecretBytes(utf8: "device-password")),
            userDecides
        )
    }

    func setRemembered(_ remembered: Bool, key: String) {
        state.withLock { $0.known[key]?.remembered = remembered }
    }
}
