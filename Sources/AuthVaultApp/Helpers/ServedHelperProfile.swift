import AuthAgent

extension Application {
    /// The profile the agent answers `target` with, for a client that could not decide (it has no configuration):
    /// `named` when it lists the target, else the choice `helperProfile(for:current:isExplicit:)` makes with the
    /// agent's current profile, made among `served` (nil: every profile) when the socket serves only some.
    func helperProfile(for target: HelperTarget, named: String?, among served: Set<String>?) throws(ApplicationError)
        -> String?
    {
        if let named { return try helperProfile(for: target, current: named, isExplicit: true) }
        let chosen = try helperProfile(for: target, current: defaultProfileName, isExplicit: false)
        guard let served else { return chosen }
        if let chosen, served.contains(chosen) { return chosen }
        // The rules chose none, or a profile this socket does not serve: the one served profile that lists the
        // target answers; two or more are ambiguous here, and the client names one.
        var listing: [String] = []
        for profile in served.sorted() where try helperProfile(for: target, current: profile, isExplicit: true) != nil {
            listing.append(profile)
        }
        return listing.count == 1 ? listing[0] : nil
    }
}
