import AuthCrypto
internal import CKeyutils
#if canImport(Glibc)
internal import Glibc
#endif
internal import SystemPlumbing

/// The data key in the kernel session keyring through libkeyutils. Only possessors of the keyring can read the key
/// (the kernel's default permissions for a new key). Containers often forbid keyrings (EPERM, ENOSYS): then every
/// call reports the problem and the vault carries on without a cache. (The process keyring would be no use: the
/// kernel keeps keyrings in per-thread credentials, so one made on one thread is invisible to threads that exist.)
struct KernelKeyringCache: Sendable {
    enum Lookup {
        case found(SecretBytes)
        case missing
        case unavailable(String)
    }

    private let keyring = KEY_SPEC_SESSION_KEYRING
    private let timeoutSeconds: UInt32
    /// keyctl_set_timeout, or a stand-in that fails (tests of the path that must leave no key behind).
    private let setTimeout: @Sendable (Int32, UInt32) -> Int

    init(timeout: Duration, setTimeout: @escaping @Sendable (Int32, UInt32) -> Int = { keyctl_set_timeout($0, $1) }) {
        timeoutSeconds = UInt32(clamping: max(1, Int64(timeout.inSeconds.rounded(.up))))
        self.setTimeout = setTimeout
    }

    func load(_ description: String) -> Lookup {
        let serial = keyctl_search(keyring, "user", description, 0)
        guard serial >= 0 else { return Self.isMissing(errno) ? .missing : .unavailable(Self.problem(errno)) }
        var buffer: UnsafeMutableRawPointer?
        let length = keyctl_read_alloc(key_serial_t(serial), &buffer)
        guard length >= 0, let buffer else {
            return Self.isMissing(errno) ? .missing : .unavailable(Self.problem(errno))
        }
        defer {
            explicit_bzero(buffer, Int(length))
            free(buffer)
        }
        return .found(SecretBytes(UnsafeRawBufferPointer(start: buffer, count: Int(length))))
    }

    /// Caches `key`; answers the problem when the keyring refused.
    ///
    /// The kernel has no call that adds a key with its time-out, so the key is made in this thread's own keyring,
    /// given its time-out there, and only then linked into the session keyring (displacing an older key of the
    /// same description): the session never holds it without a time-out, even if this process dies half-way.
    /// If a step fails, the new key is invalidated; the thread keyring's link goes in every case.
    func store(_ key: SecretBytes, description: String) -> String? {
        let serial = key.withUnsafeBytes { bytes in
            add_key("user", description, bytes.baseAddress, bytes.count, KEY_SPEC_THREAD_KEYRING)
        }
        guard serial >= 0 else { return Self.problem(errno) }
        defer { _ = keyctl_unlink(serial, KEY_SPEC_THREAD_KEYRING) }
        guard setTimeout(serial, timeoutSeconds) == 0, keyctl_link(serial, keyring) == 0 else {
            let problem = Self.problem(errno)
            _ = keyctl_invalidate(serial)
            return problem
        }
        return nil
    }

    /// Drops the cached key, if there is one.
    func remove(_ description: String) {
        let serial = keyctl_search(keyring, "user", description, 0)
        guard serial >= 0 else { return }
        if keyctl_invalidate(key_serial_t(serial)) != 0 {
            // Kernels before 3.5 have no invalidate: unlinking from the keyring makes it unreachable all the same.
            _ = keyctl_unlink(key_serial_t(serial), keyring)
        }
    }

    /// Nil when the keyring can be used, else why not.
    func availability() -> String? {
        keyctl_get_keyring_ID(keyring, 1) >= 0 ? nil : Self.problem(errno)
    }

    private static func isMissing(_ code: Int32) -> Bool {
        code == ENOKEY || code == EKEYEXPIRED || code == EKEYREVOKED
    }

    private static func problem(_ code: Int32) -> String {
        "the kernel keyring is not usable here (\(SystemCallError.text(code)))"
    }
}
