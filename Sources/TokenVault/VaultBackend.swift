/// Where a profile's credential record is kept.
public enum VaultBackendKind: String, Sendable, Codable, CaseIterable {
    case secretService = "secret-service"
    case file
    /// In-process only, for tests.
    case memory
}

/// What a backend reports about itself, for `authvault vault status`.
public struct VaultStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case available
        case locked
        case unavailable(String)
        case timedOut
    }

    public var backend: VaultBackendKind
    public var state: State
    /// Where the data is: a file path, or the Secret Service collection.
    public var location: String
    /// Backend-specific facts (for the file: the KDF and its parameters; whether the key is cached).
    public var details: [String: String]

    public init(backend: VaultBackendKind, state: State, location: String, details: [String: String] = [:]) {
        self.backend = backend
        self.state = state
        self.location = location
        self.details = details
    }
}

/// A place that keeps credential records, one per profile. Implementations bound every call in time and answer with
/// a typed outcome; a missing record is `nil`, never an error, and never confused with a locked store.
public protocol VaultBackend: Sendable {
    var kind: VaultBackendKind { get }
    func load(profile: String) async throws(VaultError) -> CredentialRecord?
    func save(_ record: CredentialRecord) async throws(VaultError)
    /// Removing a record that does not exist succeeds.
    func delete(profile: String) async throws(VaultError)
    func profiles() async throws(VaultError) -> [String]
    func status() async -> VaultStatus
    /// This vault as a `VaultRecordAtHand` when it is one: asked here rather than with `as?`, whose run-time
    /// conformance look-up costs 0.3 M instructions on the warm token path.
    var recordsAtHand: (any VaultRecordAtHand)? { get }
}

extension VaultBackend {
    public var recordsAtHand: (any VaultRecordAtHand)? { nil }
}
