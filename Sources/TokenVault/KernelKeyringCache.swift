import AuthCrypto
internal import CKeyutils
#if canImport(Glibc)
import Glibc
#endif

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

    init(timeout: Duration) {
        timeoutSeconds = UInt32(clamping: max(1, Int64(timeout.inSeconds.rounded(.up))))
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
    func store(_ key: SecretBytes, description: String) -> String? {
        let serial = key.withUnsafeBytes { bytes in
            add_key("user", description, bytes.baseAddress, bytes.count, keyring)
        }
        guard serial >= 0 else { return Self.problem(errno) }
        guard keyctl_set_timeout(serial, timeoutSeconds) == 0 else {
            let problem = Self.problem(errno)
            remove(description)
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
        "the kernel keyring is not usable here (\(String(cString: strerror(code))))"
    }
}
