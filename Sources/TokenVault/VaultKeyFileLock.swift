#if canImport(Glibc)
import Glibc
#endif
import SecureFiles

/// Serializes creating and rewrapping `vault.key` across processes: an exclusive `flock` on a hidden lock file
/// beside it (profile names cannot start with '.', so it never meets a profile's files). Blocking: callers hold it
/// on a dedicated thread.
enum VaultKeyFileLock {
    static let fileName = ".vault.key.lock"

    static func withLock<T>(directory: String, _ body: () throws(VaultError) -> T) throws(VaultError) -> T {
        let path = FilePath.join(directory, fileName)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io("cannot lock \(path): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
