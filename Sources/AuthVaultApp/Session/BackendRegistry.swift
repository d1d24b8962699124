import FoundationEssentials
import SecureFiles
import TokenVault

/// Which backend holds each profile whose configuration says `auto`, decided once and remembered, so later runs
/// neither probe the Secret Service again nor change backend silently.
public struct BackendRegistry: Sendable {
    public let path: String

    public init(dataDirectory: String) {
        path = FilePath.join(dataDirectory, "backends.json")
    }

    public func backend(of profile: String) throws(ApplicationError) -> VaultBackendKind? {
        try load()[profile]
    }

    public func record(_ backend: VaultBackendKind, for profile: String) throws(ApplicationError) {
        var entries = try load()
        entries[profile] = backend
        try save(entries, profile: profile)
    }

    /// Forgets a removed profile's backend, so a new profile of that name is decided afresh.
    public func forget(_ profile: String) throws(ApplicationError) {
        var entries = try load()
        guard entries.removeValue(forKey: profile) != nil else { return }
        try save(entries, profile: profile)
    }

    private func save(_ entries: [String: VaultBackendKind], profile: String) throws(ApplicationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(entries)
            try PrivateDirectory.create(FilePath.parent(of: path))
            try SecureFile.write(Array(data) + [0x0A], to: path)
        } catch {
            throw .backendRecord(path: path, problem: "did not take the backend of profile '\(profile)': \(error)")
        }
    }

    private func load() throws(ApplicationError) -> [String: VaultBackendKind] {
        do {
            guard let bytes = try SecureFile.read(path) else { return [:] }
            return try JSONDecoder().decode([String: VaultBackendKind].self, from: Data(bytes))
        } catch let error as FileSystemError {
            throw .backendRecord(path: path, problem: "cannot be read: \(error)")
        } catch {
            throw .backendRecord(
                path: path, problem: "is malformed; fix or remove it (it only records which vault each profile uses)")
        }
    }
}
