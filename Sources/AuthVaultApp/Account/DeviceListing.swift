/// The signed-in user's devices as `devices list` shows them, and as its `--json` prints them
/// (docs/devices-list.schema.json): one object, never a bare array.
public struct DeviceListing: Sendable, Encodable {
    /// `schemaVersion`: raised only when a field changes meaning or goes; new fields keep it.
    public static let schemaVersion = 1

    public struct Device: Sendable, Encodable {
        public let key: String
        /// The name the signing-in machine gave; nil when it gave none.
        public let name: String?
        public let remembered: Bool
        /// RFC 3339, UTC.
        public let lastAuthenticatedAt: String?
        public let thisMachine: Bool
    }

    public let schemaVersion = DeviceListing.schemaVersion
    public let devices: [Device]

    public init(_ tracked: TrackedDevices) {
        devices = tracked.devices.map { device in
            Device(
                key: device.key, name: device.name, remembered: device.rememberedStatus == "remembered",
                lastAuthenticatedAt: device.lastAuthenticatedAt.map(TimeText.rfc3339),
                thisMachine: device.key == tracked.thisMachine)
        }
    }
}
