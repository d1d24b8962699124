import FoundationEssentials
import TokenVault

/// Which backend holds each profile, and the state of each backend: read without a secret or a passphrase.
/// `vault status --json` prints it as docs/vault-status.schema.json describes it.
public struct VaultOverview: Sendable, Encodable {
    /// `schemaVersion`: raised only when a field changes meaning or goes; new fields keep it.
    public static let schemaVersion = 1

    public struct Backend: Sendable, Encodable {
        public let backend: String
        public let state: String
        public let reason: String?
        public let location: String
        public let details: [String: String]
    }

    public struct Profile: Sendable, Encodable {
        public let name: String
        /// The configuration's choice (`auto`, `file`, `secret-service`).
        public let configured: String
        /// The backend chosen for it; nil until a first use chooses one.
        public let backend: String?
        /// Whether a record is stored; nil where that cannot be known without unlocking.
        public let stored: Bool?
    }

    public let schemaVersion = VaultOverview.schemaVersion
    public let backends: [Backend]
    public let profiles: [Profile]

    /// A backend's state in a word, with the reason it is unavailable.
    static func words(_ state: VaultStatus.State) -> (String, String?) {
        switch state {
        case .available: ("available", nil)
        case .locked: ("locked", nil)
        case .unavailable(let reason): ("unavailable", reason)
        case .timedOut: ("timed out", nil)
        }
    }
}

extension Application {
    /// The backends and the profiles' places in them.
    /// - Parameter profile: the one profile to show; nil for every configured profile.
    public func vaultOverview(profile: String?) async throws(ApplicationError) -> VaultOverview {
        let configuration = try configuration()
        let factory = vaults(for: configuration)
        let fileVault = try factory.fileVault()
        let secretService = try factory.secretServiceVault()
        let statuses = [await secretService.status(), await fileVault.status()]
        let keyringOpen = statuses[0].state == .available
        let storedInSecretService = keyringOpen ? Set((try? await secretService.profiles()) ?? []) : []

        var profiles: [VaultOverview.Profile] = []
        for name in profile.map({ [$0] }) ?? configuration.profiles.keys.sorted() {
            let backend = try factory.knownBackend(for: name)
            let stored: Bool? =
                switch backend {
                case .file: FileManager.default.fileExists(atPath: fileVault.recordPath(profile: name))
                case .secretService: keyringOpen ? storedInSecretService.contains(name) : nil
                default: nil
                }
            profiles.append(
                VaultOverview.Profile(
                    name: name, configured: (configuration.profiles[name]?.vault ?? .auto).rawValue,
                    backend: backend?.rawValue, stored: stored))
        }
        let backends = statuses.map { status in
            let (state, reason) = VaultOverview.words(status.state)
            return VaultOverview.Backend(
                backend: status.backend.rawValue, state: state, reason: reason,
                location: status.location, details: status.details)
        }
        return VaultOverview(backends: backends, profiles: profiles)
    }
}
