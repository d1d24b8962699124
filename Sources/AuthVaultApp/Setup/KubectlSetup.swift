import BoundedJSON

/// A kubeconfig user whose token comes from the exec plugin `authvault kubectl-credential --profile P` (apiVersion
/// v1beta1, which Debian's kubectl 1.20 speaks), and with a context named, that context pointed at the user.
/// Written with `kubectl config`, so the YAML, the file's place (`$KUBECONFIG`, else ~/.kube/config) and its mode
/// stay kubectl's business.
struct KubectlSetup {
    static let apiVersion = "client.authentication.k8s.io/v1beta1"
    let site: SetupSite
    let context: String?
    let user: String

    var arguments: [String] { ["kubectl-credential", "--profile", site.profile] }

    func plan(undo: Bool) throws(SetupError) -> SetupPlan {
        let target = site.file("KUBECONFIG", orHome: ".kube/config")
        let config = try site.run("kubectl", ["config", "view", "--raw", "-o", "json"])
        guard let root = JSONValue.parse(config.standardOutput) else {
            throw .malformed(path: target, problem: "'kubectl config view' printed no JSON")
        }
        let exec = Self.entry(user, in: root["users"])?["user"]
        var contextUser: String?
        if let context {
            guard let entry = Self.entry(context, in: root["contexts"]) else {
                throw .noSuchContext(name: context, known: root["contexts"]?.array?.compactMap { $0["name"]?.string } ?? [])
            }
            contextUser = entry["context"]?["user"]?.string
        }
        var commands: [[String]] = [], changes: [String] = []
        if undo {
            if Self.isOurs(exec) {
                commands.append(["config", "unset", "users.\(user)"])
                changes.append("remove user \(user)")
            }
            if let context, contextUser == user {
                commands.append(["config", "unset", "contexts.\(context).user"])
                changes.append("context \(context): no user")
            }
        } else {
            if exec != nil, !Self.isOurs(exec) { throw .kubeconfigUserTaken(name: user) }
            let plugin = exec?["exec"]
            let wanted = plugin?["command"]?.string == site.executable && plugin?["args"]?.array?.compactMap(\.string) == arguments
                && plugin?["apiVersion"]?.string == Self.apiVersion
            if !wanted {
                commands.append(["config", "set-credentials", user, "--exec-command=\(site.executable)", "--exec-api-version=\(Self.apiVersion)"]
                                + arguments.map { "--exec-arg=\($0)" })
                changes.append("user \(user): exec \(ShellWords.line([site.executable] + arguments)) (\(Self.apiVersion))")
            }
            if let context, contextUser != user {
                commands.append(["config", "set-context", context, "--user=\(user)"])
                changes.append("context \(context): user \(user)" + (contextUser.map { " (was \($0))" } ?? ""))
            }
        }
        return SetupPlan(tool: .kubectl, target: target, changes: changes, edit: commands.isEmpty ? .none : .commands(tool: "kubectl", commands))
    }

    /// A user is ours to change when it only runs an authvault exec plugin.
    private static func isOurs(_ user: JSONValue?) -> Bool {
        guard case .object(let members)? = user, members.map(\.key) == ["exec"],
              let command = user?["exec"]?["command"]?.string else { return false }
        return command.split(separator: "/").last == "authvault"
    }

    /// The `{name, user|context}` entry of a kubeconfig list by name.
    private static func entry(_ name: String, in list: JSONValue?) -> JSONValue? {
        list?.array?.first { $0["name"]?.string == name }
    }
}
