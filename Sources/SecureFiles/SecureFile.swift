internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Reading and writing the project's private files (mode 0600).
///
/// Writes are atomic replacements: a temporary file in the same directory, fsync, rename over the target, fsync the
/// directory. A reader, or a writer killed at any point, sees the old content or the new, never a mix; a failed write
/// leaves the old file as it was.
public enum SecureFile {
    /// The whole file, or `nil` when it does not exist. A file that breaks `trust` (see `FileTrust`) is refused
    /// rather than read.
    public static func read(_ path: String, trust: FileTrust = .private) throws(FileSystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .from(errno: errno, path: path, operation: "open")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .from(errno: errno, path: path, operation: "stat") }
        try trust.check(info, path: path)
        var contents: [UInt8] = []
        contents.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts("read") {
                    chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                }
            } catch {
                throw .from(errno: error.code, path: path, operation: "read")
            }
            if count == 0 { break }
            contents.append(contentsOf: chunk[0..<count])
        }
        return contents
    }

    /// Replaces `path` atomically with `contents`, mode 0600 unless told. The directory must exist.
    /// - Parameters:
    ///   - mode: the new file's permission bits: another tool's file keeps the mode its owner gave it.
    ///   - modificationTime: set on the new file before it replaces the old one (the kernel's own is coarser).
    ///   - durable: false skips both fsyncs, for a file whose loss in a crash costs nothing (a change marker): the
    ///     replace is still atomic for every running process.
    public static func write(
        _ contents: some Collection<UInt8>, to path: String, mode: UInt32 = 0o600,
        modificationTime: (seconds: Int, nanoseconds: Int)? = nil, durable: Bool = true
    ) throws(FileSystemError) {
        let directory = FilePath.parent(of: path)
        var template = Array("\(path).tmp.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .from(errno: errno, path: directory, operation: "create a file in") }
        let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var committed = false
        defer {
            if !committed { unlink(temporaryPath) }
        }
        do {
            defer { close(fd) }
            guard fchmod(fd, mode_t(mode & 0o7777)) == 0 else {
                throw FileSystemError.from(errno: errno, path: temporaryPath, operation: "chmod")
            }
            try writeAll(fd: fd, contents: Array(contents), path: temporaryPath)
            if let modificationTime {
                let time = timespec(tv_sec: modificationTime.seconds, tv_nsec: modificationTime.nanoseconds)
                guard futimens(fd, [time, time]) == 0 else {
                    throw FileSystemError.from(errno: errno, path: temporaryPath, operation: "set the time of")
                }
            }
            guard !durable || fsync(fd) == 0 else {
                throw FileSystemError.from(errno: errno, path: temporaryPath, operation: "fsync")
            }
        }
        guard rename(temporaryPath, path) == 0 else { throw .from(errno: errno, path: path, operation: "replace") }
        committed = true
        if durable { try syncDirectory(directory) }
    }

    /// Removes `path`; a missing file is not an error. The directory is synced so the removal is durable.
    public static func remove(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0 {
            if errno == ENOENT { return }
            throw .from(errno: errno, path: path, operation: "remove")
        }
        try syncDirectory(FilePath.parent(of: path))
    }

    private static func writeAll(fd: Int32, contents: [UInt8], path: String) throws(FileSystemError) {
        var offset = 0
        while offset < contents.count {
            do {
                offset += try SystemCall.retryingInterrupts("write") {
                    contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                }
            } catch {
                throw .from(errno: error.code, path: path, operation: "write")
            }
        }
    }

    private static func syncDirectory(_ directory: String) throws(FileSystemError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .from(errno: errno, path: directory, operation: "open directory") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .from(errno: errno, path: directory, operation: "fsync directory") }
    }
}
