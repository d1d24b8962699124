import Foundation

/// A directory of symbolic links to an executable under the names other tools run it by, laid out as
/// `make install` lays out authvault's helper names: put it first on PATH, or run a link directly.
public struct CommandLinks: Sendable {
    public let directory: String

    /// Links `names` to `executable` in a new directory `bin` under `parent`.
    public init(_ names: [String], to executable: String, in parent: String) throws {
        directory = parent + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(atPath: path(name), withDestinationPath: executable)
        }
    }

    public func path(_ name: String) -> String {
        directory + "/" + name
    }

    /// A PATH value that looks here first, then in `rest`.
    public func searchPath(before rest: String?) -> String {
        [directory, rest ?? "/usr/bin:/bin"].joined(separator: ":")
    }
}
