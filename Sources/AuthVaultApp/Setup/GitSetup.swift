/// git's credential helper for one https host, as `gh auth setup-git` writes it: an empty `helper` first, which
/// drops the helpers set for every host (a global `store` would keep the short-lived token), then authvault by its
/// absolute path, for the profile. Written with `git config --global`.
struct GitSetup {
    let site: SetupSite
    let host: String

    var key: String { "credential.https://\(host).helper" }
    var helper: String { "!" + ShellWords.line([site.executable, "--profile", site.profile, "git-credential"]) }

    func plan(undo: Bool, helperHost: HelperHostChange?) throws(SetupError) -> SetupPlan {
        // Status 1: the key is not set.
        let current = try site.run("git", ["config", "--global", "--get-all", key], accepting: [0, 1]).text
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let section = "[credential \"https://\(host)\"]"
        if undo {
            let edit: SetupEdit = current.contains(helper) ? .commands(tool: "git", [["config", "--global", "--unset-all", key]]) : .none
            return SetupPlan(tool: .git, target: "git config --global", changes: current.map { "\(section) remove helper = \($0)" },
                             helperHost: helperHost, edit: edit)
        }
        let wanted = ["", helper]
        let edit: SetupEdit = current == wanted ? .none : .commands(tool: "git", [
            ["config", "--global", "--replace-all", key, ""],
            ["config", "--global", "--add", key, helper],
        ])
        let replaced = current.filter { !wanted.contains($0) }.map { "\(section) replace helper = \($0)" }
        return SetupPlan(tool: .git, target: "git config --global",
                         changes: replaced + ["\(section) helper = (empty: no helper set for all hosts)", "\(section) helper = \(helper)"],
                         helperHost: helperHost, edit: edit)
    }
}
