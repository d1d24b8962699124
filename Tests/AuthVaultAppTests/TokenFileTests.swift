import AuthStore
import Foundation
import SystemPlumbing
import TestSupport
import Testing

@testable import AuthVaultApp

/// `exec --token-file`'s file kept by the use case, with tokens that live two seconds (a source of ours: the end-to-end
/// tests use the real provider, whose tokens live an hour).
@Suite struct TokenFileTests {
    /// Each token the source hands out lasts `lifetime` seconds from the moment it is asked for.
    final class ShortLivedTokens: Sendable {
        let lifetime: Double
        private let issued = Locked(0)
        init(lifetime: Double) { self.lifetime = lifetime }
        var count: Int { issued.withLock { $0 } }

        func next() -> HelperToken {
            let number = issued.withLock { count in
                count += 1
                return count
            }
            return HelperToken(
                token: "token-\(number)", expiresAt: Date().timeIntervalSince1970 + lifetime, username: "u",
                profile: "p")
        }
    }

    /// Read every 50 ms across five lifetimes, the file always holds a token that has not expired, and a new one
    /// comes before each expiry; it is 0600 in a 0700 directory of its own, and gone with the directory at the end.
    @Test func theFileHoldsAnUnexpiredTokenAcrossSeveralLifetimesAndGoesAway() async throws {
        let parent = try TemporaryDirectory(prefix: "token-file")
        let tokens = ShortLivedTokens(lifetime: 2)
        let expiries = Locked<[String: Double]>([:])
        let file = try await TokenFile(in: parent.path, now: { Date().timeIntervalSince1970 }) {
            () async throws(ApplicationError) in
            let token = tokens.next()
            expiries.withLock { $0[token.token] = token.expiresAt }
            return token
        }
        let directory = (file.path as NSString).deletingLastPathComponent
        #expect((directory as NSString).lastPathComponent.hasPrefix("authvault-token-"))
        #expect(try Self.mode(file.path) == 0o600 && Self.mode(directory) == 0o700)
        var seen: [String] = []
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            let token = try String(contentsOfFile: file.path, encoding: .utf8)
            let expiresAt = try #require(expiries.withLock { $0[token] }, "a whole token: \(token)")
            #expect(expiresAt > Date().timeIntervalSince1970, "\(token) had expired")
            if seen.last != token { seen.append(token) }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(seen.count >= 5, "a new token before each expiry: \(seen)")
        #expect(try Self.mode(file.path) == 0o600)
        file.remove()
        #expect(!FileManager.default.fileExists(atPath: directory))
        let asked = tokens.count
        try await Task.sleep(for: .seconds(2))
        #expect(tokens.count == asked, "nothing is asked for once removed")
    }

    /// A token source that fails at the start leaves no directory behind.
    @Test func aFailedFirstTokenLeavesNothing() async throws {
        let parent = try TemporaryDirectory(prefix: "token-file")
        await #expect(throws: ApplicationError.self) {
            _ = try await TokenFile(in: parent.path, now: { 0 }) { () async throws(ApplicationError) in
                throw ApplicationError(AuthStoreError.signInRequired(nil), need: SignInNeed(profile: "p"))
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
    }

    /// At 80% of what remains, or a minute before the expiry when that is earlier; never in a busy loop.
    @Test func theRewriteComesAheadOfTheExpiryHoweverShortTheLifetime() {
        #expect(TokenFile.delay(remaining: 3600) == 2880)
        #expect(TokenFile.delay(remaining: 200) == 140)
        #expect(TokenFile.delay(remaining: 50) == 40)
        #expect(TokenFile.delay(remaining: 2) == 1.6)
        #expect(TokenFile.delay(remaining: 0.1) == 0.5 && TokenFile.delay(remaining: -5) == 0.5)
    }

    static func mode(_ path: String) throws -> Int {
        try ((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1)
    }
}
