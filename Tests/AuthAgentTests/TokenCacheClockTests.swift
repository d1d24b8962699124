import AuthCrypto
import AuthStore
import Testing
import TestSupport
@testable import AuthAgent

/// The agent's cache of token replies on a machine whose clock is ten minutes off: a token is fresh or not by the
/// provider's clock, as the store that gave it judges.
@Suite struct TokenCacheClockTests {
    /// The provider's clock, which times the tokens.
    let provider = TestClock(1_800_000_000)

    func cache(skew: Double) -> TokenCache {
        TokenCache(policy: RefreshPolicy(), now: { [provider] in provider.reading + skew })
    }

    func token(secondsLeft: Double) throws -> (SecretBytes, JWTLifetime) {
        let token = SecretBytes(utf8: fakeJWT(issuedAt: provider.reading + secondsLeft - 3600, expiresAt: provider.reading + secondsLeft, marker: "t"))
        return (token, try #require(JWTLifetime(token)))
    }

    @Test func aClockAheadStillServesAFreshTokenFromTheCache() throws {
        let cache = cache(skew: 600)
        let (reply, lifetime) = try token(secondsLeft: 900)
        cache.insert(reply, lifetime: lifetime, clockOffset: { -600 }, profile: "work", kind: .access, generation: cache.generation)
        #expect(cache.reply(profile: "work", kind: .access) == reply)

        // By the local clock the token would be in its advisory window, and every request would go to the store.
        cache.insert(reply, lifetime: lifetime, clockOffset: { 0 }, profile: "other", kind: .access, generation: cache.generation)
        #expect(cache.reply(profile: "other", kind: .access) == nil)
    }

    @Test func aClockBehindStopsServingATokenTheProviderSaysIsDue() throws {
        let cache = cache(skew: -600)
        let (reply, lifetime) = try token(secondsLeft: 400)
        cache.insert(reply, lifetime: lifetime, clockOffset: { 600 }, profile: "work", kind: .access, generation: cache.generation)
        #expect(cache.reply(profile: "work", kind: .access) == reply)
        provider.advance(by: 120)   // 280 s left by the provider's clock: the advisory window
        #expect(cache.reply(profile: "work", kind: .access) == nil)
    }
}
