import AuthCrypto
import DebugTrace

/// Credential records in the Secret Service (GNOME Keyring, KWallet's bridge, KeePassXC) through libsecret; a load
/// reads over a `plain` session through libdbus first (`SecretServicePlainLookup`, SECURITY.md says what it trades).
///
/// Items live in the default collection, one per profile, under our own schema (`org.authvault.Credential`) with
/// the attributes `application=authvault`, `profile`, `user-pool` and `client-id`; the secret is the record's JSON.
/// Every call is bounded: each job runs on a dedicated thread with a `GCancellable` cancelled at the deadline, and
/// answers ok, not found (`nil`), `.locked`, `.unavailable` or `.timedOut`. The collection's lock state is checked
/// explicitly before every operation, because a locked collection answers a search like an empty one. Every save
/// and delete bumps the profile's change stamp in `changeStamps`, which tells long-lived processes to read it again.
public struct SecretServiceVault: VaultBackend {
    public let kind = VaultBackendKind.secretService
    /// Profile name to its pool and client, stored as item attributes (so a person, or `secret-tool search`, can
    /// tell items apart) and matched on load; a profile missing here is stored and matched by name only.
    public let bindings: [String: ProfileBinding]
    /// The bound on every call.
    public let timeout: Duration
    /// Whether a locked collection may be unlocked through the Secret Service's own prompt (interactive use).
    public let allowPrompt: Bool
    /// The bound on that prompt, which waits for a person.
    public let promptTimeout: Duration
    /// Required: a process that keeps a session in memory learns of every change here (see `ChangeStamps`).
    public let changeStamps: ChangeStamps
    /// Each D-Bus call and its time (`--debug`).
    public let trace: DebugTrace

    public init(
        changeStamps: ChangeStamps,
        bindings: [String: ProfileBinding] = [:],
        timeout: Duration = .seconds(3),
        allowPrompt: Bool = false,
        promptTimeout: Duration = .seconds(120),
        trace: DebugTrace = .off
    ) {
        self.changeStamps = changeStamps
        self.trace = trace
        self.bindings = bindings
        self.timeout = timeout
        self.allowPrompt = allowPrompt
        self.promptTimeout = promptTimeout
    }

    public func load(profile: String) async throws(VaultError) -> CredentialRecord? {
        let attributes = SecretAttributes.profile(profile, binding: bindings[profile])
        // The hot path reads over a plain session through libdbus; only when nothing unlocked matched does the full
        // way through libsecret (a collection proxy, its lock state, the unlock prompt) tell a locked collection from
        // a missing item.
        let found = try await call(
            "look up the item of profile '\(profile)' (plain session)", timeout: timeout, usesLibsecret: false
        ) { cancellable throws(VaultError) in
            try SecretServicePlainLookup.unlockedSecrets(matching: attributes, cancellable: cancellable)
        }
        let secrets: [SecretBytes]
        if let found {
            secrets = found
        } else {
            secrets = try await withUnlockedCollection("search the items of profile '\(profile)'") {
                connection throws(VaultError) in
                try connection.items(matching: attributes, loadSecrets: true).compactMap(\.secret)
            }
        }
        // Replacing by attributes keeps one item per profile; should a second one exist, the newest revision wins.
        var newest: CredentialRecord?
        for secret in secrets {
            let record = try CredentialRecord(serialized: secret)
            guard record.profile == profile else {
                throw .corrupted(
                    location: "Secret Service item of profile '\(profile)'",
                    reason: "it holds the record of profile '\(record.profile)'")
            }
            if newest.map({ record.revision > $0.revision }) ?? true { newest = record }
        }
        return newest
    }

    public func save(_ record: CredentialRecord) async throws(VaultError) {
        let attributes = SecretAttributes.profile(record.profile, binding: bindings[record.profile])
        let label = Self.label(for: record)
        let secret = record.serialized()
        try await withUnlockedCollection("store the item of profile '\(record.profile)'") {
            connection throws(VaultError) in
            try connection.store(secret, label: label, attributes: attributes)
        }
        try changeStamps.bump(profile: record.profile)
    }

    public func delete(profile: String) async throws(VaultError) {
        // By name only: a profile's items go whatever pool they were stored for.
        let attributes = SecretAttributes.profile(profile, binding: nil)
        try await withUnlockedCollection("delete the items of profile '\(profile)'") { connection throws(VaultError) in
            try connection.delete(matching: attributes)
        }
        try changeStamps.bump(profile: profile)
    }

    public func profiles() async throws(VaultError) -> [String] {
        let items = try await withUnlockedCollection("list the profiles' items") { connection throws(VaultError) in
            try connection.items(matching: .application, loadSecrets: false)
        }
        return Set(items.compactMap { $0.attributes[SecretServiceSchema.Attribute.profile] }).sorted()
    }

    public func status() async -> VaultStatus {
        do {
            return try await call("read the default collection's state", timeout: timeout) {
                cancellable throws(VaultError) in
                let connection = try SecretServiceConnection(cancellable: cancellable)
                return VaultStatus(
                    backend: .secretService, state: connection.isLocked ? .locked : .available,
                    location: "Secret Service \(connection.collectionDescription)",
                    details: [
                        "collection": connection.collectionPath, "label": connection.label,
                        "timeout": "\(timeout.inSeconds) s",
                    ])
            }
        } catch {
            let state: VaultStatus.State
            switch error {
            case .timedOut: state = .timedOut
            case .locked: state = .locked
            default: state = .unavailable(Self.detail(of: error))
            }
            return VaultStatus(
                backend: .secretService, state: state, location: "Secret Service default collection",
                details: ["timeout": "\(timeout.inSeconds) s"])
        }
    }

    /// "AuthVault: profile work (alice@example.com)": what a person sees in Seahorse.
    static func label(for record: CredentialRecord) -> String {
        let who = record.identity.map { " (\($0.displayName))" } ?? ""
        return "AuthVault: profile \(record.profile)\(who)"
    }

    /// Runs `body` against an unlocked default collection: locked means `.locked`, unless prompting is allowed and
    /// the Secret Service's own prompt unlocks it.
    private func withUnlockedCollection<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable (SecretServiceConnection) throws(VaultError) -> T
    ) async throws(VaultError) -> T {
        let operation: @Sendable (CallCancellable) throws(VaultError) -> T = { cancellable throws(VaultError) in
            let connection = try SecretServiceConnection(cancellable: cancellable)
            guard !connection.isLocked else {
                throw .locked("the Secret Service's \(connection.collectionDescription) is locked")
            }
            return try body(connection)
        }
        do {
            return try await call(what, timeout: timeout, operation)
        } catch .locked(let detail) where allowPrompt {
            let unlocked = try await call("unlock the default collection through its prompt", timeout: promptTimeout) {
                cancellable throws(VaultError) in
                try SecretServiceConnection(cancellable: cancellable).unlockWithPrompt()
            }
            guard unlocked else {
                throw .locked("\(detail), and the unlock prompt was dismissed or could not be shown")
            }
            return try await call(what, timeout: timeout, operation)
        }
    }

    /// One Secret Service job, traced with what it did and its time.
    private func call<T: Sendable>(
        _ what: String, timeout: Duration, usesLibsecret: Bool = true,
        _ job: @escaping @Sendable (CallCancellable) throws(VaultError) -> T
    ) async throws(VaultError) -> T {
        try await trace.timed("D-Bus Secret Service: \(what)") { () async throws(VaultError) -> T in
            try await SecretServiceCall.run(timeout: timeout, usesLibsecret: usesLibsecret, job)
        }
    }

    private static func detail(of error: VaultError) -> String {
        switch error {
        case .unavailable(let detail), .io(let detail), .locked(let detail): return detail
        default: return error.description
        }
    }
}
