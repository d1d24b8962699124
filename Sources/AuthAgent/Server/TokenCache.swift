import AuthCrypto
import AuthStore
internal import SystemPlumbing

/// Token replies the agent sends without asking the store: only while the token is fresh under the stores'
/// refresh policy, which is exactly when the store itself would return that token and do nothing else. From the
/// advisory window on, requests go to the store again, which starts (or waits for) the refresh.
final class TokenCache: Sendable {
    private struct Key: Hashable {
        let profile: String
        let kind: TokenKind
    }

    private struct Entry {
        /// The whole reply line, newline included.
        let reply: SecretBytes
        let lifetime: JWTLifetime
        /// The store's offset of the provider's clock, which times the token, read at each use: it follows a wall
        /// clock that is corrected while the entry is cached.
        let clockOffset: @Sendable () -> Double
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Bumped by every invalidation, so a reply fetched before one is never cached after it.
        var generation: UInt64 = 0
    }

    private let policy: RefreshPolicy
    private let now: @Sendable () -> Double
    private let state = Locked(State())

    init(policy: RefreshPolicy, now: @escaping @Sendable () -> Double) {
        self.policy = policy
        self.now = now
    }

    /// The cached reply for a fresh token, or nil.
    func reply(profile: String, kind: TokenKind) -> SecretBytes? {
        let moment = now()
        return state.withLock { state in
            guard let entry = state.entries[Key(profile: profile, kind: kind)] else { return nil }
            guard isFresh(entry.lifetime, at: moment + entry.clockOffset()) else {
                state.entries[Key(profile: profile, kind: kind)] = nil
                return nil
            }
            return entry.reply
        }
    }

    /// Read before asking the store; hand it back to `insert`.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Caches a reply the store just gave, unless it is no longer fresh or the profile changed since `generation`.
    /// - Parameter clockOffset: the provider's clock minus this machine's, as the store knows it.
    func insert(_ reply: SecretBytes, lifetime: JWTLifetime, clockOffset: @escaping @Sendable () -> Double, profile: String,
                kind: TokenKind, generation: UInt64) {
        guard isFresh(lifetime, at: now() + clockOffset()) else { return }
        state.withLock { state in
            guard state.generation == generation else { return }
            state.entries[Key(profile: profile, kind: kind)] = Entry(reply: reply, lifetime: lifetime, clockOffset: clockOffset)
        }
    }

    /// The profile's session changed (refreshed, signed out, failed): ask the store again.
    func invalidate(profile: String) {
        state.withLock { state in
            state.generation += 1
            state.entries = state.entries.filter { $0.key.profile != profile }
        }
    }

    func removeAll() {
        state.withLock { state in
            state.generation += 1
            state.entries = [:]
        }
    }

    private func isFresh(_ lifetime: JWTLifetime, at moment: Double) -> Bool {
        policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: moment) == .fresh
    }
}
