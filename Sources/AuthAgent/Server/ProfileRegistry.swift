import AuthStore
internal import SystemPlumbing
import TokenVault

/// The agent's stores, one per profile, made on first use and kept while the profile's change stamp and the
/// settings file stay the same: concurrent first requests share one store.
final class ProfileRegistry: Sendable {
    private struct Slot {
        let store: Task<Result<AuthStore, AgentFailure>, Never>
        /// The store once made, for `madeStore`.
        var made: AuthStore?
        /// The profile's change-stamp file, and its stamp taken before the store first read the record.
        let changeStampPath: String?
        let recordStamp: ChangeStamp
        /// The settings file's stamp, taken before the store read the settings.
        let settings: ChangeStamp
    }

    private let provider: any AgentProfileProvider
    private let slots = Locked<[String: Slot]>([:])

    init(provider: any AgentProfileProvider) {
        self.provider = provider
    }

    func store(for profile: String) async throws(AgentFailure) -> AuthStore {
        let task = slots.withLock { slots in
            if let slot = slots[profile] { return slot.store }
            let provider = self.provider
            let changeStampPath = provider.changeStamps.path(profile: profile)
            let recordStamp = changeStampPath.map(ChangeStamp.init(path:)) ?? .absent
            let settings = provider.configurationPath.map(ChangeStamp.init(path:)) ?? .absent
            let store = Task { () async -> Result<AuthStore, AgentFailure> in
                do throws(AgentFailure) {
                    return .success(try await provider.makeStore(profile: profile))
                } catch {
                    return .failure(error)
                }
            }
            slots[profile] = Slot(
                store: store, made: nil, changeStampPath: changeStampPath, recordStamp: recordStamp, settings: settings)
            return store
        }
        let result = await task.value
        slots.withLock { slots in
            guard slots[profile]?.store == task else { return }
            switch result {
            case .success(let made): slots[profile]?.made = made
            // Not kept: the next request tries again (the profile may be configured by then).
            case .failure: slots[profile] = nil
            }
        }
        return try result.get()
    }

    /// The profile's store if it has been made, without waiting: for the answers a store gives without waiting either.
    func madeStore(for profile: String) -> AuthStore? {
        slots.withLock { $0[profile]?.made }
    }

    /// Forgets the profile's store if its record changed since the store was made (another process signed in or
    /// out, refreshed, migrated or re-keyed) or its settings may have (the settings file changed): the next request
    /// reads both again. Costs two `stat`s; call it before answering anything about the profile.
    func forgetIfChanged(_ profile: String) {
        let known = slots.withLock { slots in
            slots[profile].map { ($0.store, $0.changeStampPath, $0.recordStamp, $0.settings) }
        }
        guard let (store, path, recordStamp, settings) = known else { return }
        let recordChanged = path.map { ChangeStamp(path: $0) != recordStamp } ?? false
        let settingsChanged = provider.configurationPath.map { ChangeStamp(path: $0) != settings } ?? false
        guard recordChanged || settingsChanged else { return }
        slots.withLock { slots in
            if slots[profile]?.store == store { slots[profile] = nil }
        }
    }

    /// The profiles with a store (or one being made), by name.
    var profiles: [String] { slots.withLock { $0.keys.sorted() } }

    /// Drops every store; in-flight requests finish on the store they hold.
    func forgetAll() {
        slots.withLock { $0 = [:] }
    }
}
