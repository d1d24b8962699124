import AuthStore

extension Application {
    /// The profile whose token may go to `target`, or nil: only over https, to a host (and path) a profile lists
    /// among its helper hosts, by `HelperChoice`'s rules. The signed-in users are read only when those rules ask for
    /// them: one listing profile costs one read of the configuration.
    /// - Throws: `.ambiguousHelperTarget` when several profiles list the target and nothing tells them apart.
    nonisolated(nonsending) public func helperProfile(for target: HelperTarget, current: String, isExplicit: Bool)
        async throws(ApplicationError) -> String?
    {
        let listings: [(profile: String, hosts: [String])]
        do { listings = try configStore.helperHosts() } catch { throw .configuration(error) }
        let quiet = withoutPrompts()
        let choice = await helperChoice(for: target, listings: listings, current: current, isExplicit: isExplicit) {
            try? await quiet.openProfile(named: $0).store
        }
        if case .ambiguous(let candidates) = choice {
            throw .ambiguousHelperTarget(host: "\(target.endpoint)", candidates: candidates)
        }
        guard case .answer(let profile) = choice else { return nil }
        return profile
    }

    /// `HelperChoice.decide` among `listings`, with the candidates' signed-in users read when it asks for them, from
    /// the store `store` gives for each (nil: none can be read): this process's own for a helper, the agent's, on the
    /// vaults it holds and as locked as they are, for the agent (`helperProfile(for:named:among:stores:)`).
    nonisolated(nonsending) func helperChoice(
        for target: HelperTarget, listings: [(profile: String, hosts: [String])], current: String, isExplicit: Bool,
        store: (_ profile: String) async -> AuthStore?
    ) async -> HelperChoice {
        let choice = HelperChoice.decide(for: target, listings: listings, current: current, isExplicit: isExplicit)
        guard case .needsSignedInUsers(let candidates) = choice else { return choice }
        // Each candidate's signed-in user name and e-mail (from the verified ID token), as its store last read its
        // vault: no network call, no prompt. A profile without a session, or whose vault is locked, has none.
        var users: [String: [String]] = [:]
        for name in candidates {
            guard let store = await store(name) else { continue }
            await store.bootstrap()
            guard let facts = await store.recordFacts(), facts.hasSession, let identity = facts.identity else {
                continue
            }
            users[name] = [identity.username] + (identity.email.map { [$0] } ?? [])
        }
        trace("the signed-in users of \(candidates.joined(separator: ", ")) read for git's user name")
        return .decide(for: target, listings: listings, current: current, isExplicit: isExplicit, users: users)
    }
}
