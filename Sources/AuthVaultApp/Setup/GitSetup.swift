import SecureFiles

/// git's credential helper for one https host, as `gh auth setup-git` writes it: an empty `helper` first, which
/// drops the helpers set for every host (a global `store` would keep the short-lived token), then authvault by its
/// absolute path, for the profile. git's own `git config` writes both, on a private copy of the global file; the
/// copy then replaces the file in one rename, so an interruption never leaves the empty entry alone (which would
/// hide the user's other helpers for the host).
struct GitSetup {
    let site: SetupSite
    let host: String

    var key: String { "credential.https://\(host).helper" }
    var helper: String { "!" + ShellWords.line([site.executable, "--profile", site.profile, "git-credential"]) }

    /// `restoring`: on undo, the host's helpers before setup.
    func plan(undo: Bool, helperHost: HelperHostChange?, restoring: [String]?) throws(SetupError) -> SetupPlan {
        let file = try ToolFile.read(globalFile)
        // Status 1: the key is not set.
        let current = try file.editedCopy { (copy: String) throws(SetupError) in
            try site.run("git", ["config", "--file", copy, "--get-all", key], accepting: [0, 1]).text
        }.result.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let section = "[credential \"https://\(host)\"]"
        if undo {
            guard current.contains(helper) else {
                return SetupPlan(tool: .git, target: file.path, changes: [], helperHost: helperHost, edit: .none)
            }
            let previous = restoring ?? []
            let edited = try file.editedCopy { (copy: String) throws(SetupError) in
                _ = try site.run("git", ["config", "--file", copy, "--unset-all", key])
                for helper in previous { _ = try site.run("git", ["config", "--file", copy, "--add", key, helper]) }
            }
            return SetupPlan(
                tool: .git, target: file.path,
                changes: current.map { "\(section) remove helper = \($0)" }
                    + previous.map { "\(section) helper = \($0) again (setup replaced it)" },
                helperHost: helperHost, edit: file.replacement(edited.contents))
        }
        let wanted = ["", helper]
        guard current != wanted else {
            return SetupPlan(tool: .git, target: file.path, changes: [], helperHost: helperHost, edit: .none)
        }
        let edited = try file.editedCopy { (copy: String) throws(SetupError) in
            _ = try site.run("git", ["config", "--file", copy, "--replace-all", key, ""])
            _ = try site.run("git", ["config", "--file", copy, "--add", key, helper])
        }
        let replaced = current.filter { !wanted.contains($0) }.map { "\(section) replace helper = \($0)" }
        var plan = SetupPlan(
            tool: .git, target: file.path,
            changes: replaced + [
                "\(section) helper = (empty: no helper set for all hosts)", "\(section) helper = \(helper)",
            ],
            helperHost: helperHost, edit: file.replacement(edited.contents))
        plan.replaced = current.isEmpty ? nil : current
        return plan
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
