import AuthStore
internal import SystemPlumbing
import TokenVault

/// The agent's stores, one per profile, made on first use and kept while the profile's record revision and the
/// settings file stay the same: concurrent first requests share one store. Each store's state changes invalidate its cached tokens.
final class ProfileRegistry: Sendable {
    private struct Slot {
        let store: Task<Result<AuthStore, AgentFailure>, Never>
        /// Follows the store's states for the cache; cancelled when the store is forgotten.
        let observer: Task<Void, Never>
        /// The profile's revision file, and its stamp taken before the store first read the record.
        let revisionPath: String?
        let revision: RevisionStamp
        /// The settings file's stamp, taken before the store read the settings.
        let settings: RevisionStamp
    }

    private let provider: any AgentProfileProvider
    private let cache: TokenCache
    private let slots = Locked<[String: Slot]>([:])

    init(provider: any AgentProfileProvider, cache: TokenCache) {
        self.provider = provider
        self.cache = cache
    }

    func store(for profile: String) async throws(AgentFailure) -> AuthStore {
        let task = slots.withLock { slots in
            if let slot = slots[profile] { return slot.store }
            let provider = self.provider, cache = self.cache
            let revisionPath = provider.revisions.path(profile: profile)
            let revision = revisionPath.map(RevisionStamp.init(path:)) ?? .absent
            let settings = provider.configurationPath.map(RevisionStamp.init(path:)) ?? .absent
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
            slots[profile] = Slot(store: store, observer: observer, revisionPath: revisionPath, revision: revision, settings: settings)
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

    /// Forgets the profile's store and cached replies if its record changed since the store was made (another
    /// process signed in or out, refreshed, migrated or re-keyed) or its settings may have (the settings file
    /// changed): the next request reads both again. Costs two `stat`s; call it before answering anything about the
    /// profile, from the cache or not.
    func forgetIfChanged(_ profile: String) {
        let known = slots.withLock { slots in slots[profile].map { ($0.store, $0.revisionPath, $0.revision, $0.settings) } }
        guard let (store, path, revision, settings) = known else { return }
        let recordChanged = path.map { RevisionStamp(path: $0) != revision } ?? false
        let settingsChanged = provider.configurationPath.map { RevisionStamp(path: $0) != settings } ?? false
        guard recordChanged || settingsChanged else { return }
        let dropped = slots.withLock { slots -> Slot? in
            guard let slot = slots[profile], slot.store == store else { return nil }
            slots[profile] = nil
            // Inside the lock: no request finds the slot gone and the old replies still cached.
            cache.invalidate(profile: profile)
            return slot
        }
        dropped?.observer.cancel()
    }

    /// The profiles with a store (or one being made), by name.
    var profiles: [String] { slots.withLock { $0.keys.sorted() } }

    /// Drops every store and what they cached; in-flight requests finish on the store they hold.
    func forgetAll() {
        let dropped = slots.withLock { slots in
            defer { slots = [:] }
            cache.removeAll()
            return Array(slots.values)
        }
        for slot in dropped { slot.observer.cancel() }
    }
}
