import SystemPlumbing
import TokenVault

/// A vault that counts its reads and writes, and can make reads take a while (callers pile up behind the first).
final class CountingVault: VaultBackend {
    private let inner: MemoryVault
    private let readDelay: Duration
    private let counts = Locked((loads: 0, writes: 0))

    init(_ inner: MemoryVault, readDelay: Duration = .zero) {
        self.inner = inner
        self.readDelay = readDelay
    }

    var loads: Int { counts.withLock { $0.loads } }
    /// Saves and deletes.
    var writes: Int { counts.withLock { $0.writes } }
    var kind: VaultBackendKind { .memory }

    func load(profile: String) async throws(VaultError) -> CredentialRecord? {
        counts.withLock { $0.loads += 1 }
        if readDelay > .zero { try? await Task.sleep(for: readDelay) }
        return try await inner.load(profile: profile)
    }

    func save(_ record: CredentialRecord) async throws(VaultError) {
        counts.withLock { $0.writes += 1 }
        try await inner.save(record)
    }

    func delete(profile: String) async throws(VaultError) {
        counts.withLock { $0.writes += 1 }
        try await inner.delete(profile: profile)
    }

    func profiles() async throws(VaultError) -> [String] { try await inner.profiles() }
    func status() async -> VaultStatus { await inner.status() }
}
