import BoundedJSON
import NetworkHosts

/// A kubeconfig user whose token comes from the exec plugin `authvault kubectl-credential --profile P` (apiVersion
/// v1beta1, which Debian's kubectl 1.20 speaks), with `provideClusterInfo: true` so that kubectl names the server
/// the token goes to and the plugin checks it, and `interactiveMode: IfAvailable` so that kubectl hands the plugin
/// its terminal when it has one (a helper sign-in, when the user turned it on; kubectl 1.20 ignores the field and
/// says `interactive` by its own terminal); with a context named, that context pointed at the user and its
/// cluster's https server listed among the profile's helper hosts (a context whose server is not https is
/// refused). The file is edited here (see `Kubeconfig`): every other entry kept, in its order, and the file's mode.
struct KubectlSetup {
    static let apiVersion = "client.authentication.k8s.io/v1beta1"
    static let interactiveMode = "IfAvailable"
    let site: SetupSite
    let context: String?
    let user: String

    var arguments: [String] { ["kubectl-credential", "--profile", site.profile] }

    /// What kubectl runs: absolute path, the profile, v1beta1, the cluster named in every call, the terminal shared.
    var exec: JSONValue {
        .object([
            JSONMember("apiVersion", .string(Self.apiVersion)), JSONMember("command", .string(site.executable)),
            JSONMember("args", .array(arguments.map(JSONValue.string))), JSONMember("provideClusterInfo", .bool(true)),
            JSONMember("interactiveMode", .string(Self.interactiveMode)),
        ])
    }

    /// `helperHost`: the change to the profile's helper hosts that listing (or, undoing, unlisting) a host takes.
    /// `restoring`: on undo, the context's user before setup.
    func plan(undo: Bool, helperHost: (String) -> HelperHostChange?, restoring: [String]?) throws(SetupError)
        -> SetupPlan
    {
        var kubeconfig = try Kubeconfig.read(site)
        let listedUsers = try kubeconfig.list("users")
        let listedContexts = try kubeconfig.list("contexts")
        var users = listedUsers
        var contexts = listedContexts
        let userIndex = Self.index(of: user, in: users)
        let current = userIndex.map { users[$0]["user"] ?? .null }
        var contextIndex: Int?
        if let context {
            contextIndex = Self.index(of: context, in: contexts)
            guard contextIndex != nil else {
                throw .noSuchContext(name: context, known: contexts.compactMap { $0["name"]?.string })
            }
        }
        // An empty user is no user: "(was )" says nothing.
        let contextUser = contextIndex.flatMap { contexts[$0]["context"]?["user"]?.string }.flatMap {
            $0.isEmpty ? nil : $0
        }
        var hostChange: HelperHostChange?
        if let context, let contextIndex {
            let server = try Self.server(of: contexts[contextIndex], in: kubeconfig)
            if let host = Self.helperHost(server) {
                hostChange = helperHost(host)
            } else if !undo {
                throw .clusterServerRefused(context: context, server: server)
            }
        }
        var changes: [String] = []
        if undo {
            if let userIndex, Self.isOurs(current) {
                users.remove(at: userIndex)
                changes.append("remove user \(user)")
            }
            if let context, let contextIndex, contextUser == user {
                let previous = restoring?.first
                contexts[contextIndex] = Self.entry(contexts[contextIndex], user: previous)
                changes.append(
                    "context \(context): " + (previous.map { "user \($0) again (setup replaced it)" } ?? "no user"))
            }
        } else {
            if current != nil, !Self.isOurs(current) { throw .kubeconfigUserTaken(name: user) }
            if !isWanted(current?["exec"]) {
                let entry = JSONValue.object([
                    JSONMember("name", .string(user)), JSONMember("user", .object([JSONMember("exec", exec)])),
                ])
                if let userIndex { users[userIndex] = entry } else { users.append(entry) }
                changes.append(
                    "user \(user): exec \(ShellWords.line([site.executable] + arguments)) (\(Self.apiVersion), provideClusterInfo: true, interactiveMode: \(Self.interactiveMode))"
                )
            }
            if let context, let contextIndex, contextUser != user {
                contexts[contextIndex] = Self.entry(contexts[contextIndex], user: user)
                changes.append("context \(context): user \(user)" + (contextUser.map { " (was \($0))" } ?? ""))
            }
        }
        let target = kubeconfig.file.path
        // Already as wanted: the file is not rewritten, not even into JSON.
        guard !changes.isEmpty else {
            return SetupPlan(tool: .kubectl, target: target, changes: [], helperHost: hostChange, edit: .none)
        }
        if users != listedUsers { kubeconfig.members.set("users", to: .array(users)) }
        if contexts != listedContexts { kubeconfig.members.set("contexts", to: .array(contexts)) }
        if kubeconfig.fromYAML {
            changes.append("the file is rewritten as JSON, which kubectl reads as YAML (its comments are not kept)")
        }
        var plan = SetupPlan(
            tool: .kubectl, target: target, changes: changes, helperHost: hostChange,
            edit: kubeconfig.file.replacement(kubeconfig.rendered))
        if !undo, contextUser != user { plan.replaced = contextUser.map { [$0] } }
        return plan
    }

    /// The exec plugin already runs this binary for this profile, and kubectl names the cluster to it.
    private func isWanted(_ plugin: JSONValue?) -> Bool {
        plugin?["command"]?.string == site.executable && plugin?["args"]?.array?.compactMap(\.string) == arguments
            && plugin?["apiVersion"]?.string == Self.apiVersion && plugin?["provideClusterInfo"]?.bool == true
            && plugin?["interactiveMode"]?.string == Self.interactiveMode
    }

    /// The server of the context's cluster, nil when the kubeconfig names none.
    private static func server(of context: JSONValue, in kubeconfig: Kubeconfig) throws(SetupError) -> String? {
        guard let cluster = context["context"]?["cluster"]?.string else { return nil }
        return try kubeconfig.list("clusters").first { $0["name"]?.string == cluster }?["cluster"]?["server"]?.string
    }

    /// The helper host for an https server: its host and port (443 when it names none), so that only this server
    /// gets the token; nil for anything else.
    private static func helperHost(_ server: String?) -> String? {
        guard let server, let url = ServiceURL(server), url.scheme == "https" else { return nil }
        return ProfileValidation.normalizedHelperHost(
            HostPort(host: url.authority.host, port: url.authority.port ?? 443).description)
    }

    /// A user is ours to change when it only runs an authvault exec plugin.
    private static func isOurs(_ user: JSONValue?) -> Bool {
        guard let user, user.members.map(\.key) == ["exec"], let command = user["exec"]?["command"]?.string else {
            return false
        }
        return command.split(separator: "/").last == "authvault"
    }

    /// The position of the `{name, user|context}` entry of a kubeconfig list by name.
    private static func index(of name: String, in list: [JSONValue]) -> Int? {
        list.firstIndex { $0["name"]?.string == name }
    }

    /// A context entry with its `user` set (nil: removed), its other members kept.
    private static func entry(_ entry: JSONValue, user: String?) -> JSONValue {
        var context = entry["context"]?.members ?? []
        if let user { context.set("user", to: .string(user)) } else { context.removeAll { $0.key == "user" } }
        var members = entry.members
        members.set("context", to: .object(context))
        return .object(members)
    }
}
