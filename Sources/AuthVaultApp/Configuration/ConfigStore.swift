import AuthAgent
import BoundedJSON
import FoundationEssentials
import SecureFiles

/// The configuration file's content: a format version and the profiles by name.
public struct ConfigFile: Codable, Sendable, Equatable {
    public static let currentVersion = 1

    public var version: Int
    public var profiles: [String: ProfileSettings]
    /// The profile chosen with `profiles use`: the default below `--profile` and `$AUTHVAULT_PROFILE`.
    public var currentProfile: String?

    public init(profiles: [String: ProfileSettings] = [:]) {
        version = Self.currentVersion
        self.profiles = profiles
    }
}

/// Reads and writes the configuration file: mode 0600 in a 0700 directory, replaced atomically, and never written
/// when it could not be read, so a failed command cannot destroy a file the user can still repair.
public struct ConfigStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The file's content; an empty configuration when the file does not exist yet.
    public func load() throws(ConfigError) -> ConfigFile {
        guard let bytes = try read() else { return ConfigFile() }
        return try decode(bytes)
    }

    /// Each profile's helper hosts (`configure --helper-host`), by profile name, which git and docker's helpers look
    /// up on every call: read with the agent's JSON parser, as far as those lists, because JSONDecoder's first
    /// decode costs about a millisecond. A file that parser does not take as a configuration is decoded by `load`'s
    /// rules, which say what is wrong with it.
    public func helperHosts() throws(ConfigError) -> [(profile: String, hosts: [String])] {
        guard let bytes = try read() else { return [] }
        if let root = JSONValue.parse(bytes), let version = root["version"]?.number,
            version <= Double(ConfigFile.currentVersion),
            case .object(let profiles)? = root["profiles"]
        {
            let hosts = profiles.compactMap { profile -> (profile: String, hosts: [String])? in
                guard case .object = profile.value else { return nil }
                switch profile.value["helperHosts"] {
                case nil, .null?: return (profile.key, [])
                case .array(let list)? where list.allSatisfy({ $0.string != nil }):
                    return (profile.key, list.compactMap(\.string))
                default: return nil
                }
            }
            if hosts.count == profiles.count, hosts.allSatisfy({ ProfileValidation.isProfileName($0.profile) }) {
                return hosts.sorted { $0.profile < $1.profile }
            }
        }
        return try decode(bytes).profiles.map { ($0.key, $0.value.helperHosts ?? []) }.sorted {
            $0.profile < $1.profile
        }
    }

    /// The profile chosen with `profiles use`, read on every start-up that names none: by the agent's JSON parser,
    /// as far as that one field (see `helperHosts`). Nil when none is chosen, or when the file cannot be read: the
    /// command's own load of the file says what is wrong with it.
    public func currentProfile() -> String? {
        guard let bytes = try? read(), let root = JSONValue.parse(bytes) else { return nil }
        return root["currentProfile"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The file's bytes; nil when it does not exist yet. Read once per process while the file stays as it was.
    private func read() throws(ConfigError) -> [UInt8]? {
        do {
            // Not a secret store, so others may read it; but it says where tokens go, so only its owner may change it.
            return try ConfigFileCache.read(path, trust: .ownerWritable)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
    }

    private func decode(_ bytes: [UInt8]) throws(ConfigError) -> ConfigFile {
        let file: ConfigFile
        do {
            // JSONDecoder only for what the cheaper reading refuses: it says what is wrong (see JSONFields).
            file = try Self.read(bytes) ?? JSONDecoder().decode(ConfigFile.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw .malformed(path: path, problem: Self.explain(error))
        } catch {
            throw .malformed(path: path, problem: "\(error)")
        }
        if file.version > ConfigFile.currentVersion {
            throw .unsupportedVersion(path: path, version: file.version)
        }
        // A file from elsewhere (a cloned repository, --config) may name a profile as no `configure` would; such a
        // name would reach shell completion and file names, so the whole file is refused.
        for name in file.profiles.keys.sorted() + (file.currentProfile.map { [$0] } ?? [])
        where !ProfileValidation.isProfileName(name) {
            throw .malformed(
                path: path,
                problem:
                    "the profile name \(name.debugDescription) is not allowed (\(ProfileValidation.profileNameRule))")
        }
        return file
    }

    /// The file read without Codable; nil for anything that reading refuses.
    static func read(_ bytes: [UInt8]) -> ConfigFile? {
        guard let root = JSONValue.parse(bytes), let fields = try? JSONFields(root) else { return nil }
        return try? ConfigFile(fields: fields)
    }

    public func save(_ file: ConfigFile) throws(ConfigError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
        do {
            try PrivateDirectory.create(FilePath.parent(of: path))
            try SecureFile.write(Array(data) + [0x0A], to: path)
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }

    /// Reads, changes and writes back; nothing is written when reading or `change` fails.
    public func update(_ change: (inout ConfigFile) throws(ConfigError) -> Void) throws(ConfigError) {
        var file = try load()
        try change(&file)
        try save(file)
    }

    /// The named profile, resolved; a clear error when it is missing or incomplete.
    public func profile(named name: String) throws(ConfigError) -> ResolvedProfile {
        try profile(named: name, in: load())
    }

    /// The named profile of an already loaded file, resolved.
    public func profile(named name: String, in file: ConfigFile) throws(ConfigError) -> ResolvedProfile {
        guard let settings = file.profiles[name] else {
            throw .noSuchProfile(name: name, path: path, known: file.profiles.keys.sorted())
        }
        return try ResolvedProfile(name: name, settings: settings)
    }

    /// A decoding error in words a person can act on: where in the file, and what was wrong.
    private static func explain(_ error: DecodingError) -> String {
        func location(_ path: [any CodingKey]) -> String {
            let keys = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "at \(location(context.codingPath)): expected \(describe(type))"
        case .valueNotFound(let type, let context):
            return "at \(location(context.codingPath)): expected \(describe(type)), found null"
        case .keyNotFound(let key, let context):
            return "at \(location(context.codingPath)): missing key '\(key.stringValue)'"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "at \(location(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a number"
        case is [String].Type: return "a list of strings"
        default: return "a value of type \(type)"
        }
    }
}
