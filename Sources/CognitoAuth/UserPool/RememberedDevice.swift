import AuthCrypto

/// A device Cognito remembers for a user: its key and group key from `NewDeviceMetadata`, and the random password
/// whose SRP verifier ConfirmDevice registered. It identifies the machine, not the session: it outlives sign-outs.
/// The password is a secret; `description` shows only the key.
public struct RememberedDevice: Sendable, Equatable, CustomStringConvertible {
    /// `DeviceKey`: `{region}_{uuid}`.
    public let key: String
    /// `DeviceGroupKey`.
    public let groupKey: String
    public let password: SecretBytes

    public init(key: String, groupKey: String, password: SecretBytes) {
        self.key = key
        self.groupKey = groupKey
        self.password = password
    }

    public var description: String { "RememberedDevice(\(key), password redacted)" }
}

/// A device Cognito has just seen for the first time (`NewDeviceMetadata` of a sign-in's result): confirm it
/// with `CognitoClient.confirmDevice` to remember it.
public struct NewDeviceMetadata: Sendable, Equatable, Decodable {
    public let deviceKey: String
    public let deviceGroupKey: String

    public init(deviceKey: String, deviceGroupKey: String) {
        self.deviceKey = deviceKey
        self.deviceGroupKey = deviceGroupKey
    }

    enum CodingKeys: String, CodingKey {
        case deviceKey = "DeviceKey"
        case deviceGroupKey = "DeviceGroupKey"
    }
}
