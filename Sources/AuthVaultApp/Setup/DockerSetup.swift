import BoundedJSON
import SecureFiles

/// docker's `credHelpers[REGISTRY] = "authvault"` (docker then runs docker-credential-authvault), in
/// `$DOCKER_CONFIG/config.json` or `~/.docker/config.json`; every other key kept, in its order.
struct DockerSetup {
    static let helperName = "authvault"
    let site: SetupSite
    let registry: String

    /// `restoring`: on undo, the value setup replaced.
    func plan(undo: Bool, helperHost: HelperHostChange?, restoring: [String]?) throws(SetupError) -> SetupPlan {
        let path = FilePath.join(site.file("DOCKER_CONFIG", orHome: ".docker"), "config.json")
        let file = try ToolFile.read(path)
        var members: [JSONMember] = []
        if let contents = file.contents {
            guard case .object(let existing)? = JSONValue.parse(contents) else {
                throw .malformed(path: path, problem: "not a JSON object")
            }
            members = existing
        }
        var helpers: [JSONMember] = []
        if let existing = members.first(where: { $0.key == "credHelpers" })?.value {
            guard case .object(let existing) = existing else {
                throw .malformed(path: path, problem: "credHelpers is not an object")
            }
            helpers = existing
        }
        let current = helpers.first { $0.key == registry }?.value.string
        let change: String
        // Already as wanted: the file is not rewritten, not even into docker's layout.
        if (current == Self.helperName) != undo {
            return SetupPlan(tool: .docker, target: path, changes: [], helperHost: helperHost, edit: .none)
        }
        if undo, let previous = restoring?.first {
            helpers.set(registry, to: .string(previous))
            change = "credHelpers[\"\(registry)\"] = \"\(previous)\" again (setup replaced it)"
        } else if undo {
            helpers.removeAll { $0.key == registry }
            change = "remove credHelpers[\"\(registry)\"] = \"\(Self.helperName)\""
        } else {
            helpers.set(registry, to: .string(Self.helperName))
            change =
                "credHelpers[\"\(registry)\"] = \"\(Self.helperName)\"" + (current.map { " (was \"\($0)\")" } ?? "")
        }
        members.set("credHelpers", to: .object(helpers))
        var plan = SetupPlan(
            tool: .docker, target: path, changes: [change], helperHost: helperHost,
            edit: file.replacement(IndentedJSON.render(.object(members))))
        if !undo { plan.replaced = current.map { [$0] } }
        return plan
    }
}
