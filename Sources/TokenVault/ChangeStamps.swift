import SecureFiles

#if canImport(Glibc)
    internal import Glibc
#endif

/// One small file per profile, `<directory>/<profile>.revision`, replaced every time the profile's credential record
/// is saved or deleted, in whichever backend. A long-lived process that keeps a profile's session in memory (the
/// agent) stats it on every request: a different `ChangeStamp` means another process signed in, signed out,
/// refreshed, migrated or re-keyed, and the session in memory must be dropped and read again.
///
/// The backends bump it themselves after every write, so no command can forget to. The file holds the moment of the
/// change for people; readers compare only its stat (inode and a nanosecond modification time set by the writer), so
/// a check costs one `stat` and no read.
public struct ChangeStamps: Sendable, Equatable {
    public static let directoryName = "revisions"
    public static let suffix = ".revision"

    /// Created with mode 0700 on the first bump.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The change stamps of the records kept under `dataDirectory` (`$XDG_DATA_HOME/authvault`): its `revisions/`.
    public init(dataDirectory: String) {
        directory = FilePath.join(dataDirectory, Self.directoryName)
    }

    /// The profile's change-stamp file; nil for a name that cannot be a file name (no record can have it either).
    public func path(profile: String) -> String? {
        ProfileFileName.isValid(profile) ? FilePath.join(directory, profile + Self.suffix) : nil
    }

    /// The profile's current revision.
    public func stamp(profile: String) -> ChangeStamp {
        path(profile: profile).map(ChangeStamp.init(path:)) ?? .absent
    }

    /// Marks the profile's record as changed: an atomic replace (0600 in a 0700 directory) without fsync — after a
    /// crash no process is left holding a session to drop — so it costs a few syscalls and blocks nothing.
    public func bump(profile: String) throws(VaultError) {
        guard let path = path(profile: profile) else {
            throw .io("the profile name '\(profile)' cannot be used as a file name (\(ProfileFileName.rule))")
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        do {
            try PrivateDirectory.create(directory)
            try SecureFile.write(
                Array("\(now.tv_sec).\(now.tv_nsec)\n".utf8), to: path, modificationTime: (now.tv_sec, now.tv_nsec),
                durable: false)
        } catch {
            throw EncryptedFileVault.vaultError(error)
        }
    }
}

extension ChangeStamps {
    /// Removes the profile's change-stamp file, once the profile itself is gone: a process still holding its session
    /// sees the stamp change to `.absent` and drops it.
    public func forget(profile: String) throws(VaultError) {
        guard let path = path(profile: profile) else { return }
        do {
            try SecureFile.remove(path)
        } catch {
            throw EncryptedFileVault.vaultError(error)
        }
    }
}

/// What `stat` says about a revision file: equal stamps mean no bump in between. Each bump is a new file (a new
/// inode while the old one still exists) with the writer's nanosecond clock as its modification time, so a reused
/// inode number is still told apart.
public struct ChangeStamp: Sendable, Hashable {
    private var device: UInt64 = 0
    private var inode: UInt64 = 0
    private var seconds: Int = 0
    private var nanoseconds: Int = 0

    /// No change-stamp file yet (nothing saved since change stamps were kept), or it cannot be seen.
    public static let absent = ChangeStamp()

    private init() {}

    /// One `stat` of `path`; no allocation.
    public init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }
}
