import SecureFiles
import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The configuration file's bytes as this process last read them, with the identity of the file they came from. A
/// command reads the file at start-up (the current profile) and again for its work (`ConfigStore.load`): the second
/// read takes the bytes from here when `lstat` shows the same file unchanged — its device and inode (an atomic
/// replace makes a new one), size, modification and change times (a write, a chmod or a chown moves the change
/// time, so the owner and mode the first read checked still hold). A long-lived process sees every change.
enum ConfigFileCache {
    private struct Identity: Equatable {
        let device: UInt64, inode: UInt64, size: Int64
        let modified: [Int], changed: [Int]

        init?(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
            changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
        }
    }

    private struct Entry {
        let path: String
        let identity: Identity
        let bytes: [UInt8]
    }

    private static let last = Locked<Entry?>(nil)

    /// `SecureFile.read(path, trust:)`, or the bytes of the last read of the same, unchanged file.
    static func read(_ path: String, trust: FileTrust) throws(FileSystemError) -> [UInt8]? {
        let before = Identity(path)
        if let before, let entry = last.withLock({ $0 }), entry.path == path, entry.identity == before {
            return entry.bytes
        }
        let bytes = try SecureFile.read(path, trust: trust)
        // Kept only when the file read is the one seen before and after: not one replaced meanwhile.
        if let bytes, let before, Identity(path) == before {
            last.withLock { $0 = Entry(path: path, identity: before, bytes: bytes) }
        }
        return bytes
    }
}
