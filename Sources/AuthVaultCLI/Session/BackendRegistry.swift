import FoundationEssentials
import SecureFiles
import TokenVault

/// Which backend holds each profile whose configuration says `auto`, decided once and remembered, so later runs
/// neither probe the Secret Service again nor change backend silently.
struct BackendRegistry {
    let path: String

    init(dataDirectory: String) {
        path = FilePath.join(dataDirectory, "backends.json")
    }

    func backend(of profile: String) throws(CLIError) -> VaultBackendKind? {
        try load()[profile]
    }

    func record(_ backend: VaultBackendKind, for profile: String) throws(CLIError) {
        var entries = try load()
        entries[profile] = backend
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(entries)
            try PrivateDirectory.create(FilePath.parent(of: path))
            try SecureFile.write(Array(data) + [0x0A], to: path)
        } catch let error as FileSystemError {
            throw CLIError("Cannot record the vault backend of profile '\(profile)': \(error)")
        } catch {
            throw CLIError("Cannot record the vault backend of profile '\(profile)': \(error)")
        }
    }

    private func load() throws(CLIError) -> [String: VaultBackendKind] {
        do {
            guard let bytes = try SecureFile.read(path) else { return [:] }
            return try JSONDecoder().decode([String: VaultBackendKind].self, from: Data(bytes))
        } catch let error as FileSystemError {
            throw CLIError("Cannot read \(path): \(error)")
        } catch {
            throw CLIError("\(path) is malformed; fix or remove it (it only records which vault each profile uses).")
        }
    }
}
