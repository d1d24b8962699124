/// What one connection may ask: everything, or the tokens of some profiles and nothing that shows or changes the
/// agent. Decided once per connection, from the socket it came in on and its peer's user id (`forPeer`).
enum ServedProfiles: Sendable, Equatable {
    case all
    case only(Set<String>)

    var isOwner: Bool { self == .all }

    /// What a peer of `uid` may ask on a socket that serves `self` (the main socket `.all`, a restricted one its
    /// profiles): the agent's own user what the socket serves, a user listed in `alsoServed` what both the socket
    /// and its list allow, anyone else nothing (nil).
    func forPeer(uid: UInt32, ownUid: UInt32, alsoServed: [UInt32: Set<String>]) -> ServedProfiles? {
        let byUser: ServedProfiles
        if uid == ownUid {
            byUser = .all
        } else if let listed = alsoServed[uid] {
            byUser = .only(listed)
        } else {
            return nil
        }
        switch (self, byUser) {
        case (.all, let served), (let served, .all): return served
        case (.only(let socket), .only(let user)): return .only(socket.intersection(user))
        }
    }

    /// Why `request` is refused here, if it is: anything but a served profile's token or credentials (and a ping) is
    /// "not served", one answer for a profile not listed, one that does not exist, status, lock, unlock and the
    /// version alike, so nothing tells what the agent holds.
    func refusal(of request: AgentRequest) -> AgentFailure? {
        guard case .only(let profiles) = self else { return nil }
        switch request {
        case .token(let profile?, _, _), .awsCredentials(let profile?, _):
            return profiles.contains(profile) ? nil : .notServed
        case .token(nil, _, _), .awsCredentials(nil, _):
            // The agent chooses among `profiles` (`AgentProfileProvider.chooseProfile`).
            return nil
        case .ping:
            return nil
        case .status, .lock, .unlock, .version:
            return .notServed
        }
    }

    /// The profiles a choice is made among: nil for all.
    var choices: Set<String>? {
        guard case .only(let profiles) = self else { return nil }
        return profiles
    }

    /// The answer when no profile may answer a request that left the choice to the agent, or named a target its
    /// profile does not list: on a restricted socket the one "not served", to the owner what happened.
    func noneChosen(for target: AgentTarget?) -> AgentFailure {
        guard isOwner else { return .notServed }
        guard let target else {
            return AgentFailure(.unknownProfile, "The request names no profile, and the agent has none to choose.")
        }
        return AgentFailure(
            .unknownProfile,
            "No profile of the agent lists \(target.scheme)://\(target.host)\(target.port.map { ":\($0)" } ?? "") among its helper hosts."
        )
    }

    /// `failure` as this connection may see it: a restricted one gets the code and a fixed sentence, never the
    /// detail (which can name the configuration file, other profiles or the vault's files).
    func told(_ failure: AgentFailure, profile: String) -> AgentFailure {
        guard !isOwner else { return failure }
        switch failure.code {
        case .unknownProfile: return .notServed
        case .signInRequired: return AgentFailure(.signInRequired, "No usable session for profile '\(profile)'.")
        case .vaultLocked:
            return AgentFailure(.vaultLocked, "The vault of profile '\(profile)' is locked in the agent.")
        case .network:
            return AgentFailure(.network, "The agent cannot reach the identity provider of profile '\(profile)'.")
        case .badRequest, .internal:
            return AgentFailure(failure.code, "The agent could not serve profile '\(profile)'; its log says why.")
        }
    }
}

extension AgentFailure {
    /// The one answer a restricted connection gets for anything it may not ask, whether or not the profile exists:
    /// the same bytes for every such request. `unknownProfile`, so that a client of the agent's own user takes its
    /// direct path (reading the vault itself where it can), as for a profile no agent holds.
    static let notServed = AgentFailure(.unknownProfile, "The agent does not serve this profile to this user.")
}
