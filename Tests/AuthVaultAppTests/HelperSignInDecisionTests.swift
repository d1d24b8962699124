import AuthStore
import AuthVaultApp
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// A helper's own sign-in: who may be asked, and one sign-in across callers, the others answering from its session.
@Suite struct HelperSignInDecisionTests {
    @Test func onlyAnEnabledUnforbiddenHelperWithSomeoneToReachSignsIn() {
        let reach = { (enabled: Bool, forbidden: String?, terminal: Bool, desktop: Bool) in
            HelperSignIn.Reach(enabled: enabled, forbiddenBy: forbidden, hasTerminal: terminal, hasDesktop: desktop)
                .refusal
        }
        #expect(reach(true, nil, true, false) == nil)
        #expect(reach(true, nil, false, true) == nil)
        #expect(reach(false, nil, true, true) == .notEnabled)
        #expect(reach(true, "GIT_TERMINAL_PROMPT=0", true, true) == .promptsForbidden(by: "GIT_TERMINAL_PROMPT=0"))
        #expect(reach(true, nil, false, false) == .nobodyToReach)
    }

    @Test func onlyASignInRequiredStartsOne() {
        #expect(ApplicationError(AuthStoreError.signInRequired(nil), need: SignInNeed(profile: "p")).requiresSignIn)
        #expect(
            ApplicationError(CognitoError.refreshTokenRejected(message: "revoked"), need: SignInNeed(profile: "p"))
                .requiresSignIn)
        #expect(!ApplicationError.memoryVaultOutsideProcess.requiresSignIn)
    }

    /// Three callers at once: the first signs in under the lock, the others wait and answer from its session.
    @Test func concurrentCallersGetOneSignIn() async throws {
        let home = try TemporaryDirectory()
        let application = Application(environment: EnvironmentVariables(["HOME": home.path]))
        let signedIn = Locked(false)
        let signIns = Locked(0)
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await application.afterHelperSignIn(profile: "work") { () throws(ApplicationError) in
                        guard signedIn.withLock({ $0 }) else {
                            throw ApplicationError(
                                AuthStoreError.signInRequired(nil), need: SignInNeed(profile: "work"))
                        }
                        return "token"
                    } signIn: { () async throws(ApplicationError) in
                        signIns.withLock { $0 += 1 }
                        try? await Task.sleep(for: .milliseconds(300))
                        signedIn.withLock { $0 = true }
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == ["token", "token", "token"])
        #expect(signIns.withLock { $0 } == 1)
        let lock = home.path + "/.local/share/authvault/locks/sign-in/work.lock"
        let attributes = try FileManager.default.attributesOfItem(atPath: lock)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: (lock as NSString).deletingLastPathComponent)
        #expect((directory[.posixPermissions] as? Int) == 0o700)
    }

    /// A caller queued behind another's sign-in (longer than a moment) is told so once; the one signing in is not.
    @Test func aCallerQueuedBehindASignInIsToldOnce() async throws {
        let home = try TemporaryDirectory()
        let application = Application(environment: EnvironmentVariables(["HOME": home.path]))
        let signedIn = Locked(false)
        let told = Locked([Int]())
        @Sendable func helper(_ index: Int) async throws -> String {
            try await application.afterHelperSignIn(profile: "work", waiting: { told.withLock { $0.append(index) } }) {
                () throws(ApplicationError) in
                guard signedIn.withLock({ $0 }) else {
                    throw ApplicationError(AuthStoreError.signInRequired(nil), need: SignInNeed(profile: "work"))
                }
                return "token"
            } signIn: { () async throws(ApplicationError) in
                try? await Task.sleep(for: .seconds(2))
                signedIn.withLock { $0 = true }
            }
        }
        async let first = helper(1)
        try await Task.sleep(for: .milliseconds(300))
        let second = try await helper(2)
        #expect(try await first == "token" && second == "token")
        #expect(told.withLock { $0 } == [2], "the queued caller, once")
    }

    /// A sign-in that fails is not started again by the callers that waited for it: they fail too.
    @Test func whenTheOneSignInFailsTheWaitingCallersDoNotStartAnother() async throws {
        let home = try TemporaryDirectory()
        let application = Application(environment: EnvironmentVariables(["HOME": home.path]))
        let signIns = Locked(0)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    do {
                        _ = try await application.afterHelperSignIn(profile: "work") {
                            () throws(ApplicationError) -> String in
                            throw ApplicationError(
                                AuthStoreError.signInRequired(nil), need: SignInNeed(profile: "work"))
                        } signIn: { () async throws(ApplicationError) in
                            signIns.withLock { $0 += 1 }
                            try? await Task.sleep(for: .milliseconds(300))
                            throw .memoryVaultOutsideProcess  // any failure: refused, expired, cancelled
                        }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes == [false, false, false])
        #expect(signIns.withLock { $0 } == 1, "one sign-in, not one for each caller")
    }
}
