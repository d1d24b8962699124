import SecureFiles

/// `setup TOOL`: wires a tool to a profile, editing the tool's own configuration as the user would by hand. The
/// change is worked out first (`plan`), so it can be shown without writing anything; `apply` writes it. Each plan
/// is idempotent: once applied, planning the same again changes nothing. Undoing removes what a setup added.
public struct ToolSetup: Sendable {
    let application: Application
    let site: SetupSite

    /// - Parameters:
    ///   - profile: the profile the tool is wired to; it must exist.
    ///   - executable: the absolute path of the `authvault` binary the tools will run.
    ///   - tools: runs git, and kubectl to read a YAML kubeconfig.
    public init(application: Application, profile: String, executable: String, tools: any ToolRunner = SpawnedTool()) {
        self.application = application
        // The tools run in the application's environment, without authvault's own variables (the passphrase).
        let environment = application.environment.all.filter { !$0.key.hasPrefix("AUTHVAULT_") }
        site = SetupSite(
            profile: profile, executable: executable, environment: environment,
            home: application.environment["HOME"] ?? "", tools: tools)
    }

    init(application: Application, site: SetupSite) {
        self.application = application
        self.site = site
    }

    /// What `request` would change (`undo`: what removing it would), worked out from the files as they are now.
    /// Refused before anything is read: a name the tool would read as more than a name, a HOME that is no
    /// absolute path, and a program another user could replace (an undo too: it obeys the rules setup obeys).
    /// An undo of a recorded setup puts the file back as it was (see `SetupRecord`).
    public func plan(_ request: SetupRequest, undo: Bool = false) throws(SetupError) -> SetupPlan {
        try SetupNames.check(request)
        guard site.home.hasPrefix("/") else { throw .homeUnusable(value: site.home.isEmpty ? nil : site.home) }
        try Self.checkProgram(site.executable)
        let profile: ResolvedProfile
        do { profile = try application.configStore.profile(named: site.profile) } catch { throw .configuration(error) }
        if undo { return try undoPlan(request, profile: profile) }
        if case .aws = request, profile.identityPoolId == nil { throw .noIdentityPool(profile: site.profile) }
        return try recorded(toolPlan(request, profile: profile, undo: false), request)
    }

    /// The tool's own plan, from the file as it is, without the record; an undo puts back `restoring`, the values
    /// the setup replaced, unless `others` (the other setups recorded in the file) still need the entry.
    func toolPlan(
        _ request: SetupRequest, profile: ResolvedProfile, undo: Bool, restoring: [String]? = nil,
        others: [SetupClaim] = []
    ) throws(SetupError) -> SetupPlan {
        let change = { (host: String) in Self.change(host, in: profile, undo: undo) }
        switch request {
        case .git(let host):
            let host = ProfileValidation.normalizedHelperHost(host)
            let claim = SetupClaim(profile: site.profile, request: request)
            // An undo leaves the entry to the profiles still set up for the host; a setup makes it every listing
            // profile's.
            let keeping = Set(others.filter { $0.sameEntry(as: claim) }.map(\.profile))
            let answering = try gitListing(GitSetup.authority(host), after: change(host)).filter {
                !undo || keeping.contains($0.profile)
            }
            return try GitSetup(
                site: site, host: host, answering: answering.map(\.profile),
                needsPath: answering.contains { $0.entries.contains { $0.contains("/") } }
            ).plan(undo: undo, helperHost: change(host), restoring: restoring)
        case .docker(let registry):
            let host = registry.lowercased()
            return try DockerSetup(site: site, registry: host).plan(
                undo: undo, helperHost: change(host), restoring: restoring)
        case .kubectl(let context, let user):
            return try KubectlSetup(site: site, context: context, user: user ?? "authvault-\(site.profile)")
                .plan(undo: undo, helperHost: change, restoring: restoring)
        case .aws(let awsProfile):
            return try AWSSetup(site: site, awsProfile: awsProfile).plan(undo: undo, restoring: restoring)
        case .vault:
            let vault = VaultSetup(site: site)
            try Self.checkProgram(vault.helper)
            return try vault.plan(undo: undo, restoring: restoring)
        }
    }

    /// The program the tools will run, and every directory above it, can be replaced by nobody but this user and
    /// root: otherwise the next `git fetch` would run what another user put there.
    private static func checkProgram(_ path: String) throws(SetupError) {
        do { try FileTrust.checkWithAncestors(path) } catch { throw .untrustedProgram(path: path, error) }
    }

    /// Writes `plan`: the profile's helper hosts first (the configuration's own atomic replace), then the tool's file.
    public func apply(_ plan: SetupPlan) throws(SetupError) {
        // The file's trust again, before anything is written: another user may have been let in since the plan.
        switch plan.edit {
        case .file(let path, _, _), .remove(let path, _): try ToolFile.checkTrust(path)
        case .none, .commands: break
        }
        // Recorded before the file is written: an interrupted setup can still be undone.
        if case .claim(let claim, let file, let directories, let replaced)? = plan.recording {
            try record(claim, file: file, createdDirectories: directories, replaced: replaced, writing: plan.edit)
        }
        if let change = plan.helperHost {
            let name = site.profile
            do {
                try application.configStore.update { (file: inout ConfigFile) throws(ConfigError) in
                    guard var settings = file.profiles[name] else {
                        throw .noSuchProfile(
                            name: name, path: application.configPath, known: file.profiles.keys.sorted())
                    }
                    switch change {
                    case .add(let host): try settings.editHelperHosts(adding: [host], removing: [])
                    case .remove(let host): try settings.editHelperHosts(adding: [], removing: [host])
                    }
                    file.profiles[name] = settings
                }
            } catch {
                throw .configuration(error)
            }
        }
        switch plan.edit {
        case .none: break
        case .file(let path, let contents, let mode): try ToolFile.write(path: path, contents: contents, mode: mode)
        case .commands(let tool, let commands):
            for arguments in commands { _ = try site.run(tool, arguments) }
        case .remove(let path, let directories): try ToolFile.remove(path: path, directories: directories)
        }
        if case .release(let claim, let path, let previous)? = plan.recording {
            try release(claim, path: path, previous: previous, after: plan.edit)
        }
    }

    /// The profiles that list git's `authority` once `change` is made to this profile's helper hosts, each with its
    /// entries there.
    private func gitListing(_ authority: String, after change: HelperHostChange?) throws(SetupError) -> [(
        profile: String, entries: [String]
    )] {
        var listings: [(profile: String, hosts: [String])]
        do { listings = try application.configStore.helperHosts() } catch { throw .configuration(error) }
        if !listings.contains(where: { $0.profile == site.profile }) { listings.append((site.profile, [])) }
        return listings.compactMap { listing in
            var hosts = listing.hosts.map(ProfileValidation.normalizedHelperHost)
            if listing.profile == site.profile {
                switch change {
                case .add(let host)?: hosts.append(host)
                case .remove(let host)?: hosts.removeAll { $0 == host }
                case nil: break
                }
            }
            let entries = hosts.filter { GitSetup.authority($0) == authority }
            return entries.isEmpty ? nil : (listing.profile, entries)
        }
    }

    /// The helper-host change a setup (or its undo) makes, none when the list already says so.
    private static func change(_ host: String, in profile: ResolvedProfile, undo: Bool) -> HelperHostChange? {
        let listed = profile.helperHosts.contains(host)
        if undo { return listed ? .remove(host) : nil }
        return listed ? nil : .add(host)
    }
}

/// What every tool's setup works with.
struct SetupSite: Sendable {
    let profile: String
    let executable: String
    /// For the tools' children, and where their files are (`DOCKER_CONFIG`, `KUBECONFIG`, `AWS_CONFIG_FILE`).
    let environment: [String: String]
    let home: String
    let tools: any ToolRunner

    /// The same place, for another profile's setup.
    func forProfile(_ profile: String) -> SetupSite {
        SetupSite(profile: profile, executable: executable, environment: environment, home: home, tools: tools)
    }

    /// `variable` when set, else `fallback` under the home directory.
    func file(_ variable: String, orHome fallback: String) -> String {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? FilePath.join(home, fallback)
    }

    /// Runs the tool's command; a failure, other than the statuses `accepting`, is the tool's refusal.
    func run(_ tool: String, _ arguments: [String], accepting: Set<Int32> = [0]) throws(SetupError) -> ToolOutput {
        let output = try tools.run(tool, arguments, environment: environment)
        guard accepting.contains(output.status) else {
            throw .toolFailed(
                name: tool, arguments: arguments, status: output.status,
                message: output.standardError.split(separator: "\n").first.map(String.init) ?? "")
        }
        return output
    }
}
