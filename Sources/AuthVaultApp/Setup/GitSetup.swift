import SecureFiles

/// git's credential helper for one https host, as `gh auth setup-git` writes it: an empty `helper` first, which
/// drops the helpers set for every host (a global `store` would keep the short-lived token), then authvault by its
/// absolute path, for the profile; for no profile when several list the host, so that the helper chooses among
/// them (`HelperChoice`), with `useHttpPath` when one of them lists it with a path prefix (git sends the path only
/// then), which an undo turns off again once none of the profiles left does. git's own `git config` writes the file, on a private copy of the global file; the copy then replaces the
/// file in one rename, so an interruption never leaves the empty entry alone (which would hide the user's other
/// helpers for the host).
struct GitSetup {
    let site: SetupSite
    /// As the helper hosts keep it: the host, and the path prefix when one was given.
    let host: String
    /// The profiles whose token answers for the host once the change is made (on undo: those set up for it that
    /// keep it); the entry names the profile when there is one.
    let answering: [String]
    /// One of those lists the host with a path prefix.
    let needsPath: Bool

    /// The host (and port) of a helper host, without its path prefix: git's entry is for the whole host.
    static func authority(_ host: String) -> String { String(host.prefix { $0 != "/" }) }

    var key: String { "credential.https://\(Self.authority(host)).helper" }
    var pathKey: String { "credential.https://\(Self.authority(host)).useHttpPath" }
    var section: String { "[credential \"https://\(Self.authority(host))\"]" }

    /// The helper for `profiles`: one named, or several the helper chooses among.
    func helper(for profiles: [String]) -> String {
        let profile = profiles.count == 1 ? ["--profile", profiles[0]] : []
        return "!" + ShellWords.line([site.executable] + profile + ["git-credential"])
    }

    /// `restoring`: on undo, the host's helpers before setup.
    func plan(undo: Bool, helperHost: HelperHostChange?, restoring: [String]?) throws(SetupError) -> SetupPlan {
        let file = try ToolFile.read(globalFile)
        let (current, usesPath) = try file.editedCopy { (copy: String) throws(SetupError) in
            // Status 1: the key is not set.
            let helpers = try site.run("git", ["config", "--file", copy, "--get-all", key], accepting: [0, 1]).text
            let path = try site.run("git", ["config", "--file", copy, "--bool", "--get", pathKey], accepting: [0, 1])
            return (helpers, path.text == "true\n")
        }.result
        let helpers = current.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let unchanged = SetupPlan(tool: .git, target: file.path, changes: [], helperHost: helperHost, edit: .none)
        if undo && answering.isEmpty {
            guard helpers.contains(helper(for: [site.profile])) || helpers.contains(helper(for: [])) else {
                return unchanged
            }
            let previous = restoring ?? []
            let edited = try file.editedCopy { (copy: String) throws(SetupError) in
                _ = try site.run("git", ["config", "--file", copy, "--unset-all", key])
                for helper in previous { _ = try site.run("git", ["config", "--file", copy, "--add", key, helper]) }
                if usesPath { try unsetPath(in: copy) }
            }
            return SetupPlan(
                tool: .git, target: file.path,
                changes: helpers.map { "\(section) remove helper = \($0)" }
                    + previous.map { "\(section) helper = \($0) again (setup replaced it)" }
                    + (usesPath ? [removesPath] : []),
                helperHost: helperHost, edit: file.replacement(edited.contents))
        }
        let wanted = ["", helper(for: answering)]
        let setsPath = needsPath && !usesPath
        // Setup turned it on for a prefix; an undo leaves it to the profiles that keep one.
        let unsetsPath = undo && usesPath && !needsPath
        // An undo that others still need keeps their entry, and only an entry setup wrote.
        let keptByOthers = undo && !helpers.contains { $0 == helper(for: [site.profile]) || $0 == helper(for: []) }
        guard helpers != wanted || setsPath || unsetsPath, !keptByOthers else { return unchanged }
        let edited = try file.editedCopy { (copy: String) throws(SetupError) in
            if helpers != wanted {
                _ = try site.run("git", ["config", "--file", copy, "--replace-all", key, ""])
                _ = try site.run("git", ["config", "--file", copy, "--add", key, wanted[1]])
            }
            if setsPath { _ = try site.run("git", ["config", "--file", copy, pathKey, "true"]) }
            if unsetsPath { try unsetPath(in: copy) }
        }
        let replaced = helpers.filter { !wanted.contains($0) }.map { "\(section) replace helper = \($0)" }
        let written =
            helpers == wanted
            ? [] : ["\(section) helper = (empty: no helper set for all hosts)", "\(section) helper = \(wanted[1])"]
        var plan = SetupPlan(
            tool: .git, target: file.path,
            changes: replaced + written + (setsPath ? ["\(section) useHttpPath = true (git sends the path)"] : [])
                + (unsetsPath ? [removesPath] : []),
            helperHost: helperHost, edit: file.replacement(edited.contents))
        if helpers != wanted && answering.count > 1 {
            plan.notes = [
                "profiles " + answering.map { "'\($0)'" }.joined(separator: ", ") + " list \(Self.authority(host)): "
                    + "the entry names no profile, and the helper chooses by path prefix, the user in the remote URL, "
                    + "or --profile"
            ]
        }
        if !undo {
            // What its undo puts back: the user's own helpers, not another profile's entry (that profile's undo
            // takes it away), nor the empty line that came with it.
            let own = "!" + ShellWords.line([site.executable])
            let theirs = helpers.filter { !($0.hasPrefix(own + " ") && $0.hasSuffix(" git-credential")) }
            let onlyOurs = theirs.isEmpty || (theirs == [""] && theirs.count < helpers.count)
            plan.replaced = onlyOurs ? nil : theirs
        }
        return plan
    }

    private var removesPath: String { "\(section) remove useHttpPath = true (no path prefix left)" }

    /// Turns `useHttpPath` off for the host in `copy` (every value of it).
    private func unsetPath(in copy: String) throws(SetupError) {
        _ = try site.run("git", ["config", "--file", copy, "--unset-all", pathKey])
    }

    /// The file `git config --global` writes: $GIT_CONFIG_GLOBAL; else ~/.gitconfig, unless only git's XDG file
    /// ($XDG_CONFIG_HOME/git/config, else ~/.config/git/config) exists.
    var globalFile: String {
        if let named = site.environment["GIT_CONFIG_GLOBAL"], !named.isEmpty { return named }
        let home = FilePath.join(site.home, ".gitconfig")
        let xdg = FilePath.join(site.file("XDG_CONFIG_HOME", orHome: ".config"), "git/config")
        return !ToolFile.exists(home) && ToolFile.exists(xdg) ? xdg : home
    }
}
