import AuthStore
import CognitoAuth

/// The devices Cognito tracks for the signed-in user, and which of them is this machine.
public struct TrackedDevices: Sendable {
    public let devices: [DeviceSummary]
    /// This machine's device key, when it is a remembered device of the profile.
    public let thisMachine: String?
}

/// Which device `forgetDevice` had Cognito forget.
public enum ForgottenDevice: Sendable, Equatable {
    /// This machine's: gone from the vault too, so the next sign-in is from a new device.
    case thisMachine(key: String)
    case other(key: String)
}

extension Application {
    /// ListDevices, with this machine's device key.
    public func trackedDevices(profile: String) async throws(ApplicationError) -> TrackedDevices {
        let session = try await openProfile(named: profile)
        let devices = try await session.withToken(try await session.accessToken()) {
            client, token throws(CognitoError) in
            try await client.listDevices(accessToken: token)
        }
        return TrackedDevices(devices: devices, thisMachine: await session.store.recordFacts()?.device?.key)
    }

    /// ForgetDevice for `key`, this machine's device when nil; this machine's goes from the vault too.
    public func forgetDevice(_ key: String?, profile: String) async throws(ApplicationError) -> ForgottenDevice {
        let session = try await openProfile(named: profile)
        await session.store.bootstrap()
        let thisMachine = await session.store.recordFacts()?.device?.key
        guard let key = key ?? thisMachine else { throw .notARememberedDevice(profile: session.profile.name) }
        let accessToken = try await session.accessToken()
        do {
            try await session.withToken(accessToken) { client, token throws(CognitoError) in
                try await client.forgetDevice(deviceKey: key, accessToken: token)
            }
        } catch {
            // Cognito forgot this machine already: forgetting it here is all that is left.
            guard case .resourceNotFound? = error.cause?.underlying as? CognitoError, key == thisMachine else {
                throw error
            }
        }
        guard key == thisMachine else { return .other(key: key) }
        await session.store.forgetDevice(key)
        return .thisMachine(key: key)
    }
}

extension ProfileSession {
    /// Has Cognito remember this machine's device, which it only tracked so far (UpdateDeviceStatus).
    public func rememberDevice(_ key: String) async throws(ApplicationError) {
        try await withToken(try await accessToken()) { client, token throws(CognitoError) in
            try await client.setDeviceRemembered(true, deviceKey: key, accessToken: token)
        }
    }
}
