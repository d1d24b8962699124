import AuthCrypto
import CKeyutils
import Foundation
import SystemPlumbing
import TestSupport
import Testing

@testable import TokenVault

#if canImport(Glibc)
    import Glibc
#endif

/// The data-key cache in the kernel's user keyring. Each test runs on a thread of its own that joins a new
/// anonymous session keyring first (keyrings live in per-thread credentials), as a process outside a login session
/// has, so the caller's session keyring is never touched; the keys each test puts in the user keyring go at its end.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/keys"), "needs the kernel's key retention service"))
struct KernelKeyringCacheTests {
    static let key = SecretBytes(Array(repeating: UInt8(0xA5), count: 32))

    /// The key shows its time-out and owner-only permissions in /proc/keys, and the user keyring never held it
    /// without them: when the time-out is set, the key is not in the user keyring yet. Another thread in another
    /// new session keyring finds it, as any process of this uid would.
    @Test func theKeyReachesTheUserKeyringWithItsTimeOutAndOwnerOnlyPermissions() async throws {
        let description = "authvault-test:\(UUID().uuidString)"
        let cache = KernelKeyringCache(timeout: .seconds(600))
        defer { cache.remove(description) }
        let outcome = await Self.inNewSessionKeyring {
            () -> (problem: String?, inUserWhileTimed: Bool, line: String?, leftInThread: Bool, inSession: Bool) in
            let seenInUser = Recorded(false)
            let staging = KernelKeyringCache(timeout: .seconds(600)) { serial, seconds in
                seenInUser.set(keyctl_search(KEY_SPEC_USER_KEYRING, "user", description, 0) >= 0)
                return keyctl_set_timeout(serial, seconds)
            }
            let problem = staging.store(Self.key, description: description)
            let leftInThread = keyctl_search(KEY_SPEC_THREAD_KEYRING, "user", description, 0) >= 0
            let inSession = keyctl_search(KEY_SPEC_SESSION_KEYRING, "user", description, 0) >= 0
            return (problem, seenInUser.value, Self.procKeysLine(description), leftInThread, inSession)
        }
        #expect(outcome.problem == nil)
        #expect(!outcome.inUserWhileTimed, "the key was in the user keyring before it had a time-out")
        #expect(!outcome.leftInThread, "the staging link in the thread keyring is gone")
        #expect(!outcome.inSession, "a session keyring without @u in it does not hold the key")
        let found = await Self.inNewSessionKeyring { () -> (Bool, KernelKeyringCache.Sharing) in
            guard case .found(let loaded) = cache.load(description) else { return (false, cache.sharing(description)) }
            return (loaded == Self.key, cache.sharing(description))
        }
        #expect(found.0, "another session keyring of this uid reads the key back")
        #expect(found.1 == .sharedWithThisUserOnly)
        // /proc/keys: serial flags usage timeout permissions uid gid type description; 600 s show as 10m, then 9m.
        let columns = try #require(outcome.line).split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count > 4 && ["10m", "9m"].contains(columns[3]), "\(outcome.line ?? "")")
        #expect(
            columns.count > 4 && columns[4] == "001b0000",
            "possessors, group and others get nothing: \(outcome.line ?? "")")
    }

    /// Setting the time-out fails: the problem is reported, and the new key is gone, not left without a time-out.
    @Test func aKeyWhoseTimeOutFailsIsRemoved() async throws {
        let description = "authvault-test:\(UUID().uuidString)"
        defer { KernelKeyringCache(timeout: .seconds(1)).remove(description) }
        let outcome = await Self.inNewSessionKeyring { () -> (problem: String?, missing: Bool, readable: Bool) in
            let serial = Recorded<Int32>(-1)
            let cache = KernelKeyringCache(timeout: .seconds(600)) { key, _ in
                serial.set(key)
                errno = EDQUOT
                return -1
            }
            let problem = cache.store(Self.key, description: description)
            guard case .missing = cache.load(description) else { return (problem, false, true) }
            var buffer: UnsafeMutableRawPointer?
            let length = keyctl_read_alloc(serial.value, &buffer)
            free(buffer)
            return (problem, true, length >= 0)
        }
        #expect(
            outcome.problem?.contains(String(cString: strerror(EDQUOT))) == true, "\(outcome.problem ?? "no problem")")
        #expect(outcome.missing, "the user keyring holds no such key")
        #expect(!outcome.readable, "the key itself was invalidated")
    }

    /// Runs `body` on a new thread in a new anonymous session keyring.
    static func inNewSessionKeyring<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await DedicatedThread.run { () -> T in
            precondition(keyctl_join_session_keyring(nil) >= 0, "cannot join a new session keyring")
            return body()
        }
    }

    /// The line of /proc/keys for the key with `description`, as this thread sees it.
    static func procKeysLine(_ description: String) -> String? {
        let text = (try? String(contentsOfFile: "/proc/keys", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.contains(" \(description): ") || $0.hasSuffix(" \(description)") }
            .map(String.init)
    }
}

/// A value the keyring stand-in records for the test to read afterwards.
private final class Recorded<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    var value: Value { storage.withLock { $0 } }
    func set(_ value: Value) { storage.withLock { $0 = value } }
}
