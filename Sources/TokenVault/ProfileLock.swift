import DebugTrace
import SecureFiles
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Serializes work on one profile across processes: an exclusive `flock` on a lock file beside the vault, separate
/// from the data so that readers of the data never wait on it. The store holds it across "read the vault, refresh,
/// write the vault", and re-reads the vault after taking it, so a waiter sees what the holder wrote.
///
/// Waiting polls with a non-blocking `flock` and `Task.sleep`, so a waiter never blocks a thread of Swift's small
/// cooperative pool.
public struct ProfileLock: Sendable {
    public let path: String
    public let profile: String
    public let timeout: Duration
    /// Says how long a wait for another process took (`--debug`).
    public let trace: DebugTrace

    /// - Parameter directory: where lock files live; created with mode 0700 if missing.
    public init(directory: String, profile: String, timeout: Duration = .seconds(30), trace: DebugTrace = .off) {
        path = FilePath.join(directory, "\(profile).lock")
        self.profile = profile
        self.timeout = timeout
        self.trace = trace
    }

    /// A wait this long is another process's work, not a moment's: worth saying (`whenWaitingLong`).
    public static let longWait = Duration.seconds(1)

    /// Runs `body` holding the lock, on the caller's actor.
    /// - Parameter whenWaitingLong: called once when another process has held the lock for `longWait` of this wait.
    public func withLock<T, E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        whenWaitingLong: (@Sendable () -> Void)? = nil,
        _ body: () async throws(E) -> T
    ) async throws(ProfileLockError<E>) -> T {
        let descriptor: Int32
        do {
            descriptor = try await acquire(whenWaitingLong: whenWaitingLong)
        } catch {
            throw .lock(error)
        }
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        do {
            return try await body()
        } catch {
            throw .body(error)
        }
    }

    private func acquire(whenWaitingLong: (@Sendable () -> Void)?) async throws(VaultError) -> Int32 {
        do {
            try PrivateDirectory.create(FilePath.parent(of: path))
        } catch {
            throw .io(error.description)
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw .io("cannot open the lock file \(path): \(SystemCallError.text(errno))")
        }
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        let start = ContinuousClock.now
        var waited = false
        var announce = whenWaitingLong
        defer {
            if waited {
                trace(
                    "waited \(DebugTrace.milliseconds(since: start)) for the lock of profile '\(profile)' (another process held it)"
                )
            }
        }
        while true {
            do {
                if try SystemCall.lock(descriptor, LOCK_EX, waiting: false) { break }
            } catch {
                close(descriptor)
                throw .io("cannot lock \(path): \(SystemCallError.text(error.code))")
            }
            waited = true
            if let said = announce, ContinuousClock.now - start >= Self.longWait {
                announce = nil
                said()
            }
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw .lockTimedOut(profile: profile, seconds: Double(timeout.components.seconds))
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                close(descriptor)
                throw .io("cancelled while waiting for the lock of profile '\(profile)'")
            }
            pause = min(pause * 2, .milliseconds(20))
        }
        return descriptor
    }
}

extension ProfileLock {
    /// A small note that the lock's holders leave for the next holder (the store records a failed refresh in it, so
    /// processes queued behind an outage do not each try again). Read and write it only while holding the lock.
    public var notePath: String { path + ".note" }

    public func readNote() -> [UInt8]? {
        (try? SecureFile.read(notePath)) ?? nil
    }

    /// Removes the lock file and its note, for a profile being removed; call it holding the lock, last. A process
    /// still waiting on the old file then gets a lock nobody else contends for, and finds the profile gone.
    public func removeFiles() throws(VaultError) {
        do {
            try SecureFile.remove(notePath)
            try SecureFile.remove(path)
        } catch {
            throw EncryptedFileVault.vaultError(error)
        }
    }

    public func writeNote(_ bytes: [UInt8]?) {
        if let bytes {
            try? SecureFile.write(bytes, to: notePath)
        } else {
            try? SecureFile.remove(notePath)
        }
    }
}

/// Why `ProfileLock.withLock` failed: the lock itself, or the work done under it.
public enum ProfileLockError<BodyError: Error>: Error {
    case lock(VaultError)
    case body(BodyError)
}
