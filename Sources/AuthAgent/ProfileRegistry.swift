import AuthStore
import Synchronization

/// The agent's stores, one per profile, made on first use and kept: concurrent first requests share one store.
/// Each store's state changes invalidate its cached tokens.
final class ProfileRegistry: Sendable {
    private struct Slot {
        let store: Task<Result<AuthStore, AgentFailure>, Never>
        /// Follows the store's states for the cache; cancelled when the store is forgotten.
        let observer: Task<Void, Never>
    }

    private let provider: any AgentProfileProvider
    private let cache: TokenCache
    private let slots = Mutex<[String: Slot]>([:])

    init(provider: any AgentProfileProvider, cache: TokenCache) {
        self.provider = provider
        self.cache = cache
    }

    func store(for profile: String) async throws(AgentFailure) -> AuthStore {
        let task = slots.withLock { slots in
            if let slot = slots[profile] { return slot.store }
            let provider = self.provider, cache = self.cache
            let store = Task { () async -> Result<AuthStore, AgentFailure> in
                do throws(AgentFailure) {
                    return .success(try await provider.makeStore(profile: profile))
                } catch {
                    return .failure(error)
                }
            }
            let observer = Task {
                guard case .success(let made) = await store.value else { return }
                for await _ in await made.states() { cache.invalidate(profile: profile) }
            }
            slots[profile] = Slot(store: store, observer: observer)
            return store
        }
        let result = await task.value
        if case .failure = result {
            // Not kept: the next request tries again (the profile may be configured by then).
            slots.withLock { slots in
                if slots[profile]?.store == task { slots[profile] = nil }
            }
        }
        return try result.get()
    }

    /// The profiles with a store (or one being made), by name.
    var profiles: [String] { slots.withLock { $0.keys.sorted() } }

    /// Drops every store and what they cached; in-flight requests finish on the store they hold.
    func forgetAll() {
        let dropped = slots.withLock { slots in
            defer { slots = [:] }
            return Array(slots.values)
        }
        for slot in dropped { slot.observer.cancel() }
        cache.removeAll()
    }
}
