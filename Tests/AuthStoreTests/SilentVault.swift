import SystemPlumbing
import TokenVault

/// A vault in front of a memory one that, until told to answer, fails every call the way a Secret Service that takes
/// calls and answers none does (`timedOut`); it counts the reads.
final class SilentVault: VaultBackend {
    static let bound = 5.0
    private let inner: MemoryVault
    private let state = Locked((answering: false, loads: 0))

    init(_ inner: MemoryVault) {
        self.inner = inner
    }

    var loads: Int { state.withLock { $0.loads } }
    var kind: VaultBackendKind { .secretService }
    func answer(_ answering: Bool) { state.withLock { $0.answering = answering } }

    private func call() throws(VaultError) {
        guard state.withLock({ $0.answering }) else { throw .timedOut(seconds: Self.bound) }
    }

    func load(profile: String) async throws(VaultError) -> CredentialRecord? {
        state.withLock { $0.loads += 1 }
        try call()
        return try await inner.load(profile: profile)
    }

    func save(_ record: CredentialRecord) async throws(VaultError) {
        try call()
        try await inner.save(record)
    }

    func delete(profile: String) async throws(VaultError) {
        try call()
        try await inner.delete(profile: profile)
    }

    func profiles() async throws(VaultError) -> [String] {
        try call()
        return try await inner.profiles()
    }

    func status() async -> VaultStatus { await inner.status() }
}
