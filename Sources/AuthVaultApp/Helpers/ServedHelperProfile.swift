import AuthAgent

extension Application {
    /// The profile the agent answers `target` with, for a client that could not decide (it has no configuration):
    /// `HelperChoice`'s rules over the helper hosts of the profiles this socket serves (`served`; nil: every
    /// profile), `named` as the explicit profile when the client named one, else the agent's current profile. Nil
    /// when none lists the target, or several do and nothing tells them apart: the client names one.
    /// - Parameter stores: the agent's own store of a profile, for the candidates' signed-in users: never a vault
    ///   opened here, which would not be locked by `vault lock` as the agent's are.
    nonisolated(nonsending) func helperProfile(
        for target: HelperTarget, named: String?, among served: Set<String>?, stores: ServedStores
    ) async throws(ApplicationError) -> String? {
        var listings: [(profile: String, hosts: [String])]
        do { listings = try configStore.helperHosts() } catch { throw .configuration(error) }
        if let served { listings.removeAll { !served.contains($0.profile) } }
        let choice = await helperChoice(
            for: target, listings: listings, current: named ?? defaultProfileName, isExplicit: named != nil,
            store: stores)
        guard case .answer(let profile) = choice else { return nil }
        return profile
    }
}
