import Foundation

/// A private directory (mode 0700) under the system temporary directory, removed when released.
/// Tests put every file they make, and every HOME or XDG directory they point the code at, in one of these,
/// so no test touches the real user's home.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(prefix: String = "authvault-test") throws {
        var template = Array("\(NSTemporaryDirectory())/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed: errno \(errno)"])
        }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    /// A path inside the directory; nothing is created.
    public func appending(_ component: String) -> String {
        url.appendingPathComponent(component).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
