import AuthCrypto
import FoundationEssentials
import SecureFiles

/// What `setup` changed in each tool's file, so that `--undo` (and `reset`) can put the file back as it was: the
/// file's bytes before the first setup touched it (none: it did not exist; sealed, see `SealedOriginal`), the
/// directories that setup created for it, the digest of the bytes the last change wrote, and which profile set up
/// what in it. Kept in `setup-changes.json`, 0600 in the 0700 data directory, and trusted only when nobody else
/// could have replaced it. No copy of the tool's file is kept readable: it may hold secrets.
struct SetupRecord: Sendable, Equatable {
    static let fileName = "setup-changes.json"
    var files: [RecordedFile] = []

    /// The file (as its name resolves) that holds `claim`.
    func entry(holding claim: SetupClaim) -> Int? {
        files.firstIndex { $0.claims.contains(claim) }
    }

    func entry(for path: String) -> Int? {
        files.firstIndex { $0.path == path }
    }

    /// Every setup recorded, in the order they were made, each with its tool's file.
    var claims: [SetupClaim] { files.flatMap(\.claims) }

    static func path(in dataDirectory: String) -> String { FilePath.join(dataDirectory, fileName) }

    /// The record; empty when there is none. One another user could have replaced is refused, as a tool's file is.
    static func load(from dataDirectory: String) throws(SetupError) -> SetupRecord {
        let path = path(in: dataDirectory)
        do {
            try FileTrust.checkWithAncestors(path)
            guard let bytes = try SecureFile.read(path) else { return SetupRecord() }
            let decoder = JSONDecoder()
            guard try decoder.decode(Version.self, from: Data(bytes)).version == 1 else {
                return SetupRecord(files: try decoder.decode(Stored.self, from: Data(bytes)).files)
            }
            // Version 1 kept the files' bytes readable: they are sealed at once, and the sealed record replaces the
            // file by an atomic rename; the plain copy's blocks are freed, not overwritten, so they may stay on disk.
            let record = SetupRecord(
                files: try decoder.decode(StoredVersion1.self, from: Data(bytes)).files.map { try $0.migrated() })
            try record.save(in: dataDirectory)
            return record
        } catch let error as SetupError {
            throw error
        } catch let error as FileSystemError {
            throw .untrusted(error)
        } catch {
            throw .malformed(path: path, problem: "not a record of setup changes")
        }
    }

    /// Written atomically, 0600; the file goes once nothing is recorded.
    func save(in dataDirectory: String) throws(SetupError) {
        let path = Self.path(in: dataDirectory)
        do {
            guard !files.isEmpty else { return try SecureFile.remove(path) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(Stored(files: files))
            try PrivateDirectory.create(dataDirectory)
            try SecureFile.write(Array(data) + [0x0A], to: path)
        } catch {
            throw .file(path: path, reason: "\(error)")
        }
    }

    private struct Version: Decodable {
        var version: Int
    }

    private struct Stored: Codable {
        var version = 2
        var files: [RecordedFile]
    }
}

/// One tool file that setups changed.
struct RecordedFile: Sendable, Equatable, Codable {
    /// The file the tool's name leads to (the one written).
    let path: String
    /// Its bytes before the first setup, opened only by the bytes setup last wrote; nil when it did not exist.
    var original: SealedOriginal?
    /// Its permission bits before the first setup.
    let originalMode: UInt32?
    /// The directories setup made for it, innermost first: removed again with the file.
    let createdDirectories: [String]
    /// The SHA-256 digest of the bytes the last setup or undo wrote: while the file still holds them, nobody else
    /// edited it.
    var written: Data
    /// Someone else edited the file between two setups: its old bytes would undo their edit too, so an undo
    /// removes setup's own entries only.
    var editedSince: Bool
    var claims: [SetupClaim]
    /// The values each setup replaced (a claim absent: it replaced nothing), which its undo puts back.
    var replaced: [ReplacedValues]

    /// Whether the file (nil: missing) holds what setup last wrote.
    func holdsWritten(_ contents: [UInt8]?) -> Bool { contents.map(Self.digest) == written }

    /// `contents` written by setup: the record's digest of them, and the original sealed again to open by them.
    mutating func wrote(_ contents: [UInt8], over current: [UInt8]?) throws(CryptoError) {
        original = try original?.resealed(from: current, to: contents)
        written = Self.digest(contents)
    }

    static func digest(_ contents: [UInt8]) -> Data { Data(SHA256.hash(data: contents)) }
}

/// What one setup replaced in its file: the tool's own values, as the tool's plan read them.
struct ReplacedValues: Sendable, Equatable, Codable {
    let claim: SetupClaim
    let values: [String]
}

/// One `setup` of one profile.
public struct SetupClaim: Sendable, Equatable, Codable {
    public let profile: String
    public let tool: SetupTool
    /// The name the setup was given: git host, registry, AWS profile, kubectl `context`.
    let name: String?
    /// kubectl's `--user`.
    let user: String?

    init(profile: String, request: SetupRequest) {
        self.profile = profile
        tool = request.tool
        switch request {
        case .git(let host): (name, user) = (ProfileValidation.normalizedHelperHost(host), nil)
        case .docker(let registry): (name, user) = (registry.lowercased(), nil)
        case .kubectl(let context, let user): (name, self.user) = (context, user)
        case .aws(let awsProfile): (name, user) = (awsProfile, nil)
        case .vault: (name, user) = (nil, nil)
        }
    }

    public var request: SetupRequest {
        switch tool {
        case .git: .git(host: name ?? "")
        case .docker: .docker(registry: name ?? "")
        case .kubectl: .kubectl(context: name, user: user)
        case .aws: .aws(awsProfile: name ?? "")
        case .vault: .vault
        }
    }

    /// The same tool entry set up, whichever profile did it: for git, the helper entry of the same host, whatever
    /// path prefix each profile set up under it.
    func sameEntry(as other: SetupClaim) -> Bool {
        guard tool == .git else { return tool == other.tool && name == other.name && user == other.user }
        return other.tool == .git && name.map(GitSetup.authority) == other.name.map(GitSetup.authority)
    }
}

extension SetupTool: Codable {}
