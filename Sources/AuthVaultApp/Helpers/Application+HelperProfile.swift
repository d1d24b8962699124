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
        switch await helperChoice(for: target, listings: listings, current: current, isExplicit: isExplicit) {
        case .answer(let profile): return profile
        case .notListed, .needsSignedInUsers: return nil
        case .ambiguous(let candidates):
            throw .ambiguousHelperTarget(host: "\(target.endpoint)", candidates: candidates)
        }
    }

    /// `HelperChoice.decide` among `listings`, with the candidates' signed-in users read when it asks for them:
    /// this configuration's profiles for a helper, the served ones for the agent (`helperProfile(for:named:among:)`).
    nonisolated(nonsending) func helperChoice(
        for target: HelperTarget, listings: [(profile: String, hosts: [String])], current: String, isExplicit: Bool
    ) async -> HelperChoice {
        let choice = HelperChoice.decide(for: target, listings: listings, current: current, isExplicit: isExplicit)
        guard case .needsSignedInUsers(let candidates) = choice else { return choice }
        let users = await signedInUsers(of: candidates)
        return .decide(for: target, listings: listings, current: current, isExplicit: isExplicit, users: users)
    }

    /// Each profile's signed-in user name and e-mail (from the verified ID token), as its vault holds them: read
    /// without a network call or a prompt. A profile without a session, or whose vault cannot be read so, has none.
    nonisolated(nonsending) private func signedInUsers(of profiles: [String]) async -> [String: [String]] {
        let quiet = withoutPrompts()
        var users: [String: [String]] = [:]
        for name in profiles {
            guard let session = try? await quiet.openProfile(named: name) else { continue }
            await session.store.bootstrap()
            guard let facts = await session.store.recordFacts(), facts.hasSession, let identity = facts.identity else {
                continue
            }
            users[name] = [identity.username] + (identity.email.map { [$0] } ?? [])
        }
        trace("the signed-in users of \(profiles.joined(separator: ", ")) read for git's user name")
        return users
    }
}
