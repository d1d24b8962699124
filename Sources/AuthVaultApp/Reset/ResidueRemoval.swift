import SecureFiles
import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// A file or directory `reset` could not remove.
public struct ResidueFailure: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// AuthVault's own files for this user: the configuration file (and its directory when it is AuthVault's own and
/// nothing else is left in it), and the data directory with everything in it. A symbolic link in there is removed,
/// never followed: nothing outside these directories is touched.
struct ResidueRemoval {
    let configPath: String
    let dataDirectory: String
    /// Runs just before each entry is opened: where a test plays the other process that swaps a directory for a link.
    var beforeOpening: (String) -> Void = { _ in }

    private var configDirectory: String? {
        let directory = FilePath.parent(of: configPath)
        return directory.hasSuffix("/authvault") ? directory : nil
    }

    /// What exists to be removed.
    var targets: [String] {
        [configPath, dataDirectory].filter(Self.exists) + (configDirectory.map { [$0] }?.filter(Self.exists) ?? [])
    }

    func remove() -> (removed: [String], failures: [ResidueFailure]) {
        var removed: [String] = []
        var failures: [ResidueFailure] = []
        for path in [configPath, dataDirectory] where Self.exists(path) {
            if let failure = removeTree(path) { failures.append(failure) } else { removed.append(path) }
        }
        if let configDirectory, Self.exists(configDirectory) {
            if rmdir(configDirectory) == 0 {
                removed.append(configDirectory)
            } else if errno != ENOTEMPTY && errno != EEXIST {
                failures.append(ResidueFailure(path: configDirectory, reason: SystemCallError.text(errno)))
            }
        }
        return (removed, failures)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Removes `path`: a directory with what it holds, anything else (a link too) by its name alone.
    private func removeTree(_ path: String) -> ResidueFailure? {
        removeEntry(path, in: AT_FDCWD, path: path)
    }

    /// Removes `name` of the open directory `parent`. A directory is opened without following a link and walked
    /// by its descriptor, so one swapped for a link after it was listed is removed as the link it now is.
    private func removeEntry(_ name: String, in parent: Int32, path: String) -> ResidueFailure? {
        do throws(SystemCallError) {
            beforeOpening(path)
            let directory: Int32
            do throws(SystemCallError) {
                directory = try SystemCall.openDirectory(name, in: parent)
            } catch  where error.code == ELOOP || error.code == ENOTDIR {
                try SystemCall.unlink(name, in: parent, directory: false)
                return nil
            }
            defer { close(directory) }
            do { try PrivateDirectory.checkOwned(descriptor: directory, path: path) } catch {
                return ResidueFailure(path: path, reason: error.description)
            }
            for entry in try SystemCall.directoryEntries(directory) {
                if let failure = removeEntry(entry, in: directory, path: FilePath.join(path, entry)) { return failure }
            }
            try SystemCall.unlink(name, in: parent, directory: true)
            return nil
        } catch {
            return error.code == ENOENT ? nil : ResidueFailure(path: path, reason: SystemCallError.text(error.code))
        }
    }
}
