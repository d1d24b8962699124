import AuthCrypto
import CKeyutils
import Foundation
import SystemPlumbing
import Testing
import TestSupport
@testable import TokenVault
#if canImport(Glibc)
import Glibc
#endif

/// The data-key cache in the kernel session keyring. Each test runs on a thread of its own that joins a new
/// anonymous session keyring first (keyrings live in per-thread credentials), so the caller's keyring is never
/// touched and the thread's keyrings go with it.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/keys"), "needs the kernel's key retention service"))
struct KernelKeyringCacheTests {
    static let key = SecretBytes(Array(repeating: UInt8(0xA5), count: 32))

    /// The key shows its time-out in /proc/keys, and the session keyring never held it without one: when the
    /// time-out is set, the key is not in the session keyring yet.
    @Test func theKeyReachesTheSessionKeyringWithItsTimeOut() async throws {
        let description = "authvault-test:\(UUID().uuidString)"
        let outcome = await Self.inNewSessionKeyring { () -> (problem: String?, inSessionWhileTimed: Bool, line: String?, found: Bool, leftInThread: Bool) in
            let seenInSession = Recorded(false)
            let cache = KernelKeyringCache(timeout: .seconds(600)) { serial, seconds in
                seenInSession.set(keyctl_search(KEY_SPEC_SESSION_KEYRING, "user", description, 0) >= 0)
                return keyctl_set_timeout(serial, seconds)
            }
            let problem = cache.store(Self.key, description: description)
            let line = Self.procKeysLine(description)
            let leftInThread = keyctl_search(KEY_SPEC_THREAD_KEYRING, "user", description, 0) >= 0
            guard case .found(let loaded) = cache.load(description) else { return (problem, seenInSession.value, line, false, leftInThread) }
            return (problem, seenInSession.value, line, loaded == Self.key, leftInThread)
        }
        #expect(outcome.problem == nil)
        #expect(!outcome.inSessionWhileTimed, "the key was in the session keyring before it had a time-out")
        #expect(outcome.found, "the cached key reads back")
        #expect(!outcome.leftInThread, "the staging link in the thread keyring is gone")
        // /proc/keys: serial flags usage timeout permissions uid gid type description; 600 s show as 10m, then 9m.
        let columns = try #require(outcome.line).split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count > 3 && ["10m", "9m"].contains(columns[3]), "\(outcome.line ?? "")")
    }

    /// Setting the time-out fails: the problem is reported, and the new key is gone, not left without a time-out.
    @Test func aKeyWhoseTimeOutFailsIsRemoved() async throws {
        let description = "authvault-test:\(UUID().uuidString)"
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
        #expect(outcome.problem?.contains(String(cString: strerror(EDQUOT))) == true, "\(outcome.problem ?? "no problem")")
        #expect(outcome.missing, "the session keyring holds no such key")
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
        return text.split(separator: "\n").first { $0.contains(" \(description): ") || $0.hasSuffix(" \(description)") }.map(String.init)
    }
}

/// A value the keyring stand-in records for the test to read afterwards.
private final class Recorded<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    var value: Value { storage.withLock { $0 } }
    func set(_ value: Value) { storage.withLock { $0 = value } }
}
