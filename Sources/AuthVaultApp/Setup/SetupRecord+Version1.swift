import FoundationEssentials

/// The record as version 1 kept it: each tool file's bytes before setup and as setup wrote them, readable. Read
/// only to be migrated (`SetupRecord.load` saves the migrated record at once).
struct StoredVersion1: Decodable {
    var files: [RecordedFileVersion1]
}

struct RecordedFileVersion1: Decodable {
    let path: String
    let original: Data?
    let originalMode: UInt32?
    let createdDirectories: [String]
    let written: Data
    let editedSince: Bool
    let claims: [SetupClaim]
    let replaced: [ReplacedValues]

    /// The same entry with the original sealed to open by the written bytes, and those kept as a digest.
    func migrated() throws -> RecordedFile {
        RecordedFile(
            path: path, original: try original.map { try SealedOriginal(Array($0), openedBy: Array(written)) },
            originalMode: originalMode, createdDirectories: createdDirectories,
            written: RecordedFile.digest(Array(written)), editedSince: editedSince, claims: claims,
            replaced: replaced)
    }
}
