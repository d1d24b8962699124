/// Which profile answers a helper's target, decided from the profiles' helper hosts alone (and, only when those
/// leave several profiles and git named a user, from their signed-in users): a pure function, so every rule is a
/// row of a table test. `Application.helperProfile` reads what it needs and asks this.
public enum HelperChoice: Sendable, Equatable {
    case answer(profile: String)
    /// Not https, no profile lists the target, or the profile named explicitly does not.
    case notListed
    /// Several profiles list the target and nothing here tells them apart: no answer.
    case ambiguous(candidates: [String])
    /// Several profiles list the target and git named a user: decide again with `users`.
    case needsSignedInUsers(candidates: [String])

    /// The rules, in order: only https, and only profiles with an entry that names the target (`HelperHostEntry`).
    /// A profile named explicitly chooses among those, never widening them. Otherwise the longest path prefix that
    /// matches git's `path=`; else the profile whose signed-in user (`users`: each candidate's user name and
    /// e-mail) is git's `username=`; else the current profile, or the one profile left.
    /// - Parameter users: nil until asked for with `needsSignedInUsers`.
    public static func decide(
        for target: HelperTarget, listings: [(profile: String, hosts: [String])], current: String,
        isExplicit: Bool, users: [String: [String]]? = nil
    ) -> HelperChoice {
        guard target.scheme == "https" else { return .notListed }
        let matches = listings.compactMap { listing -> (profile: String, specificity: Int)? in
            listing.hosts.compactMap { HelperHostEntry($0)?.specificity(for: target) }.max().map {
                (listing.profile, $0)
            }
        }
        guard let best = matches.map(\.specificity).max() else { return .notListed }
        if isExplicit { return matches.contains { $0.profile == current } ? .answer(profile: current) : .notListed }
        var candidates = matches.filter { $0.specificity == best }.map(\.profile)
        if candidates.count == 1 { return .answer(profile: candidates[0]) }
        if let username = target.username?.lowercased(), !username.isEmpty {
            guard let users else { return .needsSignedInUsers(candidates: candidates) }
            let named = candidates.filter { users[$0]?.contains { $0.lowercased() == username } ?? false }
            if named.count == 1 { return .answer(profile: named[0]) }
            if !named.isEmpty { candidates = named }
        }
        return candidates.contains(current) ? .answer(profile: current) : .ambiguous(candidates: candidates)
    }
}
