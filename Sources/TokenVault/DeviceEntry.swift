import AuthCrypto

/// The device Cognito remembers for this machine: its key and group key, and the random password whose verifier
/// ConfirmDevice registered. It identifies the machine, not the session: a sign-out keeps it.
public struct DeviceEntry: Sendable, Equatable {
    public var key: String
    public var groupKey: String
    public var password: SecretBytes
    /// The name it was confirmed under.
    public var name: String

    public init(key: String, groupKey: String, password: SecretBytes, name: String) {
        self.key = key
        self.groupKey = groupKey
        self.password = password
        self.name = name
    }
}
