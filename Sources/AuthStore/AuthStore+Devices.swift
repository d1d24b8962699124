import CognitoAuth
import TokenVault

/// Whether a sign-in makes this machine a remembered device when Cognito reports it as new, and its name there.
public struct DevicePolicy: Sendable, Equatable {
    public var name: String
    /// For pools that leave remembering to the user: remember it (so it may skip MFA), not just track it.
    public var remember: Bool

    public init(name: String, remember: Bool) {
        self.name = name
        self.remember = remember
    }
}

extension AuthStore {
    /// Confirms the device a sign-in reported as new, as the policy says. A failure leaves the sign-in as it is:
    /// the device stays unconfirmed, and the next sign-in reports it again.
    func confirmNewDevice(_ tokens: CognitoTokens) async -> DeviceEntry? {
        guard let policy = devicePolicy, let newDevice = tokens.newDevice else { return nil }
        do {
            let (device, userDecides) = try await authority.confirmDevice(
                newDevice, name: policy.name, accessToken: tokens.accessToken)
            if userDecides, policy.remember {
                try await authority.setDeviceRemembered(true, deviceKey: device.key, accessToken: tokens.accessToken)
            }
            return DeviceEntry(key: device.key, groupKey: device.groupKey, password: device.password, name: policy.name)
        } catch {
            return nil
        }
    }

    /// Drops the remembered device from the vault (Cognito no longer knows it, or the user forgot it there); a
    /// record left with nothing to keep goes.
    public func forgetDevice(_ key: String) async {
        _ = try? await updateRecord(
            { (record: inout CredentialRecord?) throws(AuthStoreError) -> Bool in
                guard var stored = record, stored.device?.key == key else { return false }
                stored.device = nil
                record = stored.hasSession || stored.outlivesSession ? stored : nil
                return true
            }, event: { _, forgotten in forgotten ? .deviceForgotten : nil })
    }
}
