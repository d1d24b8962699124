import AuthCrypto
internal import CKeyutils
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The data key in the kernel's user keyring (`@u`) through libkeyutils. Every process of this uid reaches `@u`,
/// whatever session keyring it runs in: a PAM login links `@u` into its session keyring, while cron, systemd
/// services, CI, containers and `su` run in session keyrings of their own (one that adds a key to `@s` without a
/// session keyring gets a fresh one that dies with it), so a key kept there would be cached by nobody. The key
/// grants nothing to whoever possesses it and view, read, search and link to its owner's uid only: another uid
/// that shares a session keyring linking this `@u` still cannot read it. Containers often forbid keyrings (EPERM,
/// ENOSYS): then every call reports the problem and the vault carries on without a cache. (The process keyring
/// would be no use: the kernel keeps keyrings in per-thread credentials, so one made on one thread is invisible to
/// threads that exist.)
struct KernelKeyringCache: Sendable {
    enum Lookup {
        case found(SecretBytes)
        case missing
        case unavailable(String)
    }

    /// Whether a cached key is where every process of this uid finds it, and only this uid.
    enum Sharing: Equatable {
        case sharedWithThisUserOnly
        case notCached
        case otherPermissions(UInt32)
        case unavailable(String)
    }

    /// Owner (uid) only; nothing for possessors, the group or others.
    static let permissions = key_perm_t(KEY_USR_VIEW | KEY_USR_READ | KEY_USR_SEARCH | KEY_USR_LINK)
    private let keyring = KEY_SPEC_USER_KEYRING
    private let timeout: Duration
    /// Worked out when a key is stored, not on every read of one.
    private var timeoutSeconds: UInt32 { UInt32(clamping: max(1, Int64(timeout.inSeconds.rounded(.up)))) }
    /// keyctl_set_timeout, or a stand-in that fails (tests of the path that must leave no key behind).
    private let setTimeout: @Sendable (Int32, UInt32) -> Int

    init(timeout: Duration, setTimeout: @escaping @Sendable (Int32, UInt32) -> Int = { keyctl_set_timeout($0, $1) }) {
        self.timeout = timeout
        self.setTimeout = setTimeout
    }

    func load(_ description: String) -> Lookup {
        let serial = keyctl_search(keyring, "user", description, 0)
        guard serial >= 0 else { return Self.isMissing(errno) ? .missing : .unavailable(Self.problem(errno)) }
        var buffer: UnsafeMutableRawPointer?
        let length = keyctl_read_alloc(key_serial_t(serial), &buffer)
        guard length >= 0, let buffer else {
            // A key of that name this uid may not read (not one of ours) is replaced by the next store.
            return Self.isMissing(errno) || errno == EACCES ? .missing : .unavailable(Self.problem(errno))
        }
        defer {
            explicit_bzero(buffer, Int(length))
            free(buffer)
        }
        return .found(SecretBytes(UnsafeRawBufferPointer(start: buffer, count: Int(length))))
    }

    /// Caches `key`; answers the problem when the keyring refused.
    ///
    /// The kernel has no call that adds a key with its time-out and permissions, so the key is made in this
    /// thread's own keyring, given its time-out and owner-only permissions there, and only then linked into the
    /// user keyring (displacing an older key of the same description): `@u` never holds it without either, even if
    /// this process dies half-way. If a step fails, the new key is invalidated; the thread keyring's link goes in
    /// every case.
    /// - Parameter seconds: a shorter time-out than the cache's, if any.
    func store(_ key: SecretBytes, description: String, seconds: Double? = nil) -> String? {
        let timeout = seconds.map { min(timeoutSeconds, UInt32(clamping: max(1, Int64($0.rounded(.up))))) }
        let serial = key.withUnsafeBytes { bytes in
            add_key("user", description, bytes.baseAddress, bytes.count, KEY_SPEC_THREAD_KEYRING)
        }
        guard serial >= 0 else { return Self.problem(errno) }
        defer { _ = keyctl_unlink(serial, KEY_SPEC_THREAD_KEYRING) }
        guard setTimeout(serial, timeout ?? timeoutSeconds) == 0, keyctl_setperm(serial, Self.permissions) == 0,
            keyctl_link(serial, keyring) == 0
        else {
            let problem = Self.problem(errno)
            _ = keyctl_invalidate(serial)
            return problem
        }
        return nil
    }

    /// Drops the cached key, if there is one, and one an earlier version kept in the session keyring.
    func remove(_ description: String) {
        for place in [keyring, KEY_SPEC_SESSION_KEYRING] {
            let serial = keyctl_search(place, "user", description, 0)
            guard serial >= 0 else { continue }
            if keyctl_invalidate(key_serial_t(serial)) != 0 {
                // Kernels before 3.5 have no invalidate: unlinking from the keyring makes it unreachable all the same.
                _ = keyctl_unlink(key_serial_t(serial), place)
            }
        }
    }

    /// Whether a key of that description is in the keyring (searched only: its payload is not read).
    func contains(_ description: String) -> Bool {
        keyctl_search(keyring, "user", description, 0) >= 0
    }

    /// Drops every key of this uid's user keyring whose description `matches`.
    func removeAll(where matches: (Substring) -> Bool) {
        var list: UnsafeMutableRawPointer?
        let length = keyctl_read_alloc(keyring, &list)
        guard length >= 0, let list else { return }
        defer { free(list) }
        let serials = UnsafeRawBufferPointer(start: list, count: Int(length)).bindMemory(to: key_serial_t.self)
        for serial in serials {
            var buffer: UnsafeMutablePointer<CChar>?
            guard keyctl_describe_alloc(serial, &buffer) >= 0, let buffer else { continue }
            defer { free(buffer) }
            // "type;uid;gid;perm;description"
            let fields = String(cString: buffer).split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, fields[0] == "user", matches(fields[4]) else { continue }
            if keyctl_invalidate(serial) != 0 { _ = keyctl_unlink(serial, keyring) }
        }
    }

    /// Nil when the keyring can be used, else why not.
    func availability() -> String? {
        keyctl_get_keyring_ID(keyring, 1) >= 0 ? nil : Self.problem(errno)
    }

    /// Looks the key up from the user keyring, as any other process of this uid would, and reads its permissions.
    func sharing(_ description: String) -> Sharing {
        let serial = keyctl_search(keyring, "user", description, 0)
        guard serial >= 0 else { return Self.isMissing(errno) ? .notCached : .unavailable(Self.problem(errno)) }
        var buffer: UnsafeMutablePointer<CChar>?
        guard keyctl_describe_alloc(key_serial_t(serial), &buffer) >= 0, let buffer else {
            return .unavailable(Self.problem(errno))
        }
        defer { free(buffer) }
        // "type;uid;gid;perm;description", the permissions in hexadecimal.
        let fields = String(cString: buffer).split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let permissions = UInt32(fields[3], radix: 16) else {
            return .unavailable("the kernel described the key in an unknown form")
        }
        return permissions == Self.permissions ? .sharedWithThisUserOnly : .otherPermissions(permissions)
    }

    private static func isMissing(_ code: Int32) -> Bool {
        code == ENOKEY || code == EKEYEXPIRED || code == EKEYREVOKED
    }

    private static func problem(_ code: Int32) -> String {
        "the kernel keyring is not usable here (\(SystemCallError.text(code)))"
    }
}
