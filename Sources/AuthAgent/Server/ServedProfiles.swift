/// What one connection's user may ask: the agent's own user anything, another user the agent serves
/// (`AgentServer.Options.alsoServed`) the tokens of its own profiles and nothing that shows or changes the agent.
enum ServedProfiles: Sendable, Equatable {
    case all
    case only(Set<String>)

    var isOwner: Bool { self == .all }

    /// Why `request` is refused to this user, if it is: a profile not listed is "not served", like one that does
    /// not exist, so the answer tells nothing of what the agent holds.
    func refusal(of request: AgentRequest) -> AgentFailure? {
        guard case .only(let profiles) = self else { return nil }
        switch request {
        case .token(let profile, _), .awsCredentials(let profile, _):
            return profiles.contains(profile) ? nil : .notServed
        case .version, .ping:
            return nil
        case .status, .lock, .unlock:
            return .badRequest("Only the agent's own user may ask for status, lock or unlock")
        }
    }

    /// `failure` as this user may see it: to another user, the code and a fixed sentence, never the detail (which
    /// can name the configuration file, other profiles or the vault's files).
    func told(_ failure: AgentFailure, profile: String) -> AgentFailure {
        guard !isOwner else { return failure }
        switch failure.code {
        case .unknownProfile: return .notServed
        case .signInRequired: return AgentFailure(.signInRequired, "No usable session for profile '\(profile)'.")
        case .vaultLocked: return AgentFailure(.vaultLocked, "The vault of profile '\(profile)' is locked in the agent.")
        case .network: return AgentFailure(.network, "The agent cannot reach the identity provider of profile '\(profile)'.")
        case .badRequest, .internal: return AgentFailure(failure.code, "The agent could not serve profile '\(profile)'; its log says why.")
        }
    }
}

extension AgentFailure {
    /// The one answer another user gets for a profile it may not have, whether or not the profile exists: the
    /// same bytes for every such profile.
    static let notServed = AgentFailure(.unknownProfile, "The agent does not serve this profile to this user.")
}
