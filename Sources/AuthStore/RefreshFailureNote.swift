import FoundationEssentials

/// What the profile lock's note says about the last failed refresh: when, how many in a row, and why.
struct RefreshFailureNote: Codable {
    let failedAt: Double
    let failures: Int
    let message: String

    init(failedAt: Double, failures: Int, message: String) {
        self.failedAt = failedAt
        self.failures = failures
        self.message = message
    }

    /// A note that cannot be read is no note.
    init?(_ bytes: [UInt8]?) {
        guard let bytes, let note = try? JSONDecoder().decode(RefreshFailureNote.self, from: Data(bytes)) else {
            return nil
        }
        self = note
    }

    var encoded: [UInt8]? {
        (try? JSONEncoder().encode(self)).map(Array.init)
    }
}
