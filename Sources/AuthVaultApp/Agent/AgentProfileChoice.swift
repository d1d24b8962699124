import AuthAgent

extension Application {
    /// `AgentProfileProvider.chooseProfile` for the hosted agent: a target by the helper hosts of this
    /// application's configuration (`helperProfile(for:named:among:)`); no target and no name, the current
    /// profile when served, else the socket's only profile. `stores`: the agent's stores, for the signed-in users.
    nonisolated(nonsending) func agentProfile(
        named: String?, for target: AgentTarget?, among served: Set<String>?, stores: ServedStores
    ) async throws(ApplicationError) -> String? {
        guard let target else {
            if let named { return named }
            let current = defaultProfileName
            guard let served, !served.contains(current) else { return current }
            return served.count == 1 ? served.first : nil
        }
        guard let helperTarget = HelperTarget(target) else { return nil }
        return try await helperProfile(for: helperTarget, named: named, among: served, stores: stores)
    }
}
