extension ProfileSettings {
    /// Changes the helper hosts (`configure --helper-host`, `--remove-helper-host`, `setup git|docker`): each host
    /// added is checked and kept with its host lower-case, once, after those listed; an empty one clears the list first; each
    /// removed must be listed.
    public mutating func editHelperHosts(adding added: [String], removing removed: [String]) throws(ConfigError) {
        var hosts = added.contains("") ? [] : helperHosts ?? []
        for host in added.filter({ !$0.isEmpty }).map(ProfileValidation.normalizedHelperHost)
        where !hosts.contains(host) {
            try ProfileValidation.helperHost(host)
            hosts.append(host)
        }
        for host in removed.map(ProfileValidation.normalizedHelperHost) {
            guard hosts.contains(host) else {
                throw .invalidValue(
                    option: "remove-helper-host", value: host,
                    reason: "the profile lists " + (hosts.isEmpty ? "no helper hosts" : hosts.joined(separator: ", ")))
            }
            hosts.removeAll { $0 == host }
        }
        helperHosts = hosts.isEmpty ? nil : hosts
    }
}
