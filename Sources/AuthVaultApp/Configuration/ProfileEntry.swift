/// `profiles list --json` as docs/profiles-list.schema.json describes it: one object, the profiles in name order.
public struct ProfileListing: Sendable, Encodable {
    /// `schemaVersion`: raised only when a field changes meaning or goes; new fields keep it.
    public static let schemaVersion = 1

    public let schemaVersion = ProfileListing.schemaVersion
    public let profiles: [ProfileEntry]

    public init(_ profiles: [ProfileEntry]) {
        self.profiles = profiles
    }
}

/// One configured profile as a listing shows it: encoded with every setting's default filled in, or with what the
/// user set and why the profile cannot be used yet (under the same keys either way).
public struct ProfileEntry: Sendable, Encodable {
    public let name: String
    /// Whether it is the profile commands use when they name none.
    public let current: Bool
    public let settings: ProfileSettings

    private enum Keys: String, CodingKey { case name, current, problem }

    public func encode(to encoder: any Encoder) throws {
        switch Result(catching: { () throws(ConfigError) in try ResolvedProfile(name: name, settings: settings) }) {
        case .success(let resolved):
            try resolved.encode(to: encoder)
        case .failure(let problem):
            try settings.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(problem.description, forKey: .problem)
        }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        try container.encode(current, forKey: .current)
    }
}

extension Application {
    /// The configured profiles by name, `current` marked.
    public func profileEntries(current: String) throws(ApplicationError) -> [ProfileEntry] {
        let file = try configuration()
        return file.profiles.keys.sorted().map { name in
            ProfileEntry(name: name, current: name == current, settings: file.profiles[name]!)
        }
    }
}
