/// A vault that lives in this process only: for tests, and for callers that must never touch the disk.
public actor MemoryVault: VaultBackend {
    public nonisolated let kind = VaultBackendKind.memory
    private var records: [String: CredentialRecord] = [:]

    public init() {}

    public func load(profile: String) throws(VaultError) -> CredentialRecord? {
        records[profile]
    }

    public func save(_ record: CredentialRecord) throws(VaultError) {
        records[record.profile] = record
    }

    public func delete(profile: String) throws(VaultError) {
        records[profile] = nil
    }

    public func profiles() throws(VaultError) -> [String] {
        records.keys.sorted()
    }

    public func status() -> VaultStatus {
        VaultStatus(backend: .memory, state: .available, location: "process memory")
    }
}
