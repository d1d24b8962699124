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
            if let failure = Self.removeTree(path) { failures.append(failure) } else { removed.append(path) }
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
    private static func removeTree(_ path: String) -> ResidueFailure? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? nil : ResidueFailure(path: path, reason: SystemCallError.text(errno))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return unlink(path) == 0 || errno == ENOENT
                ? nil : ResidueFailure(path: path, reason: SystemCallError.text(errno))
        }
        guard let stream = opendir(path) else { return ResidueFailure(path: path, reason: SystemCallError.text(errno)) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(stream)
        for name in names {
            if let failure = removeTree(FilePath.join(path, name)) { return failure }
        }
        return rmdir(path) == 0 ? nil : ResidueFailure(path: path, reason: SystemCallError.text(errno))
    }
}
