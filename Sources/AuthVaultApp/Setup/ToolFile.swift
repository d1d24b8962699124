import SecureFiles
import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Another tool's configuration file, read and replaced whole: atomically, keeping its mode, and through a
/// symbolic link to the file it names (a dotfiles repository's link stays a link).
struct ToolFile: Sendable, Equatable {
    /// The file as named (shown to the user).
    let path: String
    /// The file the name leads to, which is the one written.
    let resolvedPath: String
    /// The bytes; nil when the file does not exist yet.
    let contents: [UInt8]?
    /// Its permission bits; nil when it does not exist yet.
    let mode: UInt32?

    static func read(_ path: String) throws(SetupError) -> ToolFile {
        try checkTrust(path)
        let resolved = Self.resolve(path)
        let fd = open(resolved, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return ToolFile(path: path, resolvedPath: resolved, contents: nil, mode: nil) }
            throw .file(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .file(path: path, reason: String(cString: strerror(errno))) }
        // Replacing a file renames ours over it: another user's file would become ours.
        guard info.st_uid == geteuid() else { throw .file(path: path, reason: "it belongs to another user") }
        // What others can write could already run their commands as this user: it is not built upon.
        do { try FileTrust.ownerWritable.check(descriptor: fd, path: path) } catch { throw .untrusted(error) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts("read") { Glibc.read(fd, &chunk, chunk.count) }
            } catch {
                throw .file(path: path, reason: SystemCallError.text(error.code))
            }
            if count == 0 { break }
            contents.append(contentsOf: chunk[0..<count])
        }
        return ToolFile(path: path, resolvedPath: resolved, contents: contents, mode: UInt32(info.st_mode & 0o7777))
    }

    /// What another user can replace (the file, or a directory above it, or where a link leads) is not built upon:
    /// checked when the file is read for a plan, and again just before the plan writes it.
    static func checkTrust(_ path: String) throws(SetupError) {
        do { try FileTrust.checkWithAncestors(path) } catch { throw .untrusted(error) }
    }

    /// Whether `path` names a file (through its links), as kubectl asks when choosing among `$KUBECONFIG`'s files.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The text, empty for a file that does not exist yet.
    var text: String { contents.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// The edit that replaces this file with `contents`; none when they are the same.
    func replacement(_ contents: [UInt8]) -> SetupEdit {
        contents == self.contents ? .none : .file(path: resolvedPath, contents: contents, mode: mode)
    }

    /// Writes an edit's file: a new one 0600, in a new directory 0700 (docker and AWS keep secrets beside it).
    static func write(path: String, contents: [UInt8], mode: UInt32?) throws(SetupError) {
        let directory = FilePath.parent(of: path)
        if mode == nil, mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw .file(path: path, reason: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        do {
            try SecureFile.write(contents, to: path, mode: mode ?? 0o600)
        } catch {
            throw .file(path: path, reason: error.description)
        }
    }

    /// Undoes the creation of a file: it goes, then each directory made for it that is empty again.
    static func remove(path: String, directories: [String]) throws(SetupError) {
        do { try SecureFile.remove(path) } catch { throw .file(path: path, reason: error.description) }
        for directory in directories where rmdir(directory) != 0 { break }
    }

    /// The directory a new file at `path` is written into, when it does not exist yet (`write` makes it).
    static func missingDirectory(of path: String) -> [String] {
        let directory = FilePath.parent(of: path)
        return exists(directory) ? [] : [directory]
    }

    /// The file `path` leads to; for one that does not exist yet, its name in the directory that does, so that the
    /// record names it the same before and after setup creates it (`$HOME` may be `/tmp//home`).
    private static func resolve(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let slash = path.lastIndex(of: "/"), let directory = realpath(FilePath.parent(of: path), nil) else {
            return path
        }
        defer { free(directory) }
        return FilePath.join(String(cString: directory), String(path[path.index(after: slash)...]))
    }
}
