import SecureFiles
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Serializes changes to `vault.key` across processes: an exclusive `flock` on a hidden lock file beside it
/// (profile names cannot start with '.', so it never meets a profile's files) for creating, rewrapping and
/// re-keying; a shared one for reading and writing records, so that a re-key never runs in between.
enum VaultKeyFileLock {
    static let fileName = ".vault.key.lock"

    /// Exclusive. Blocking: callers hold it on a dedicated thread.
    static func withLock<T>(directory: String, _ body: () throws(VaultError) -> T) throws(VaultError) -> T {
        let descriptor = try open(directory)
        defer { close(descriptor) }
        do {
            try SystemCall.lock(descriptor, LOCK_EX, waiting: true)
        } catch {
            throw failure(directory, code: error.code)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Shared, on the caller's actor. Waits on a dedicated thread only while a re-key holds the lock.
    static func withSharedLock<T>(
        directory: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws(VaultError) -> T
    ) async throws(VaultError) -> T {
        let descriptor = try open(directory)
        defer { close(descriptor) }
        let taken: Bool
        do {
            taken = try SystemCall.lock(descriptor, LOCK_SH, waiting: false)
        } catch {
            throw failure(directory, code: error.code)
        }
        if !taken {
            let failed = await DedicatedThread.run { () -> Int32? in
                do throws(SystemCallError) {
                    try SystemCall.lock(descriptor, LOCK_SH, waiting: true)
                    return nil
                } catch {
                    return error.code
                }
            }
            if let failed { throw failure(directory, code: failed) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// Shared, on the calling thread, when no re-key holds the lock; nil, without running `body`, when one does.
    static func withSharedLockIfFree<T>(directory: String, _ body: () throws(VaultError) -> T) throws(VaultError) -> T?
    {
        let descriptor = try open(directory)
        defer { close(descriptor) }
        do {
            guard try SystemCall.lock(descriptor, LOCK_SH, waiting: false) else { return nil }
        } catch {
            throw failure(directory, code: error.code)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private static func open(_ directory: String) throws(VaultError) -> Int32 {
        let path = FilePath.join(directory, fileName)
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io("cannot open \(path): \(SystemCallError.text(errno))") }
        return descriptor
    }

    private static func failure(_ directory: String, code: Int32) -> VaultError {
        .io("cannot lock \(FilePath.join(directory, fileName)): \(SystemCallError.text(code))")
    }
}
