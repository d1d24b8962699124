import BoundedJSON
import SecureFiles

/// The one kubeconfig file a setup edits, read as JSON and written back whole as JSON (which is YAML, so every
/// kubectl reads it). kubectl's own `config set-credentials` cannot be used: Debian 12's kubectl 1.20 panics in it,
/// and `config set` cannot write an exec plugin. A JSON file (any file once a setup wrote it) or a missing one is
/// read here, so no kubectl is needed; a YAML file is read by kubectl (`config view --raw -o json`).
struct Kubeconfig {
    let file: ToolFile
    /// The top-level members, in their order.
    var members: [JSONMember]
    /// Read from YAML: writing it turns it into JSON, without its comments.
    let fromYAML: Bool

    static func read(_ site: SetupSite) throws(SetupError) -> Kubeconfig {
        let file = try ToolFile.read(path(site))
        guard let contents = file.contents, contents.contains(where: { !Self.isSpace($0) }) else {
            return Kubeconfig(
                file: file, members: [JSONMember("apiVersion", "v1"), JSONMember("kind", "Config")], fromYAML: false)
        }
        if let parsed = JSONValue.parse(contents) {
            guard case .object(let members) = parsed else {
                throw .malformed(path: file.path, problem: "not a JSON object")
            }
            return Kubeconfig(file: file, members: members, fromYAML: false)
        }
        let view = try site.run(
            "kubectl", ["config", "view", "--raw", "-o", "json", "--kubeconfig", file.resolvedPath])
        guard case .object(let members)? = JSONValue.parse(view.standardOutput) else {
            throw .malformed(path: file.path, problem: "'kubectl config view' printed no JSON object")
        }
        let unknown = YAMLKeys.names(in: file.text).subtracting(Self.keys(in: .object(members)))
        guard unknown.isEmpty else { throw .kubeconfigFieldsUnknown(path: file.path, fields: unknown.sorted()) }
        return Kubeconfig(file: file, members: members, fromYAML: true)
    }

    /// The file kubectl itself writes new entries to: `$KUBECONFIG`'s only file, else the first of its files that
    /// exists, else its last; without it, ~/.kube/config.
    static func path(_ site: SetupSite) -> String {
        let listed = (site.environment["KUBECONFIG"] ?? "").split(separator: ":").map(String.init)
        guard let last = listed.last else { return FilePath.join(site.home, ".kube/config") }
        return listed.count == 1 ? last : listed.first { ToolFile.exists($0) } ?? last
    }

    /// The `name`d entries of a top-level list (`users`, `contexts`); none for a missing or null one.
    func list(_ key: String) throws(SetupError) -> [JSONValue] {
        switch members.first(where: { $0.key == key })?.value {
        case nil, .null?: return []
        case .array(let entries)?: return entries
        default: throw .malformed(path: file.path, problem: "\(key) is not a list")
        }
    }

    var rendered: [UInt8] { IndentedJSON.render(.object(members)) }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Every object key anywhere in `value`.
    private static func keys(in value: JSONValue) -> Set<String> {
        switch value {
        case .object(let members): members.reduce(into: Set(members.map(\.key))) { $0.formUnion(keys(in: $1.value)) }
        case .array(let elements): elements.reduce(into: []) { $0.formUnion(keys(in: $1)) }
        default: []
        }
    }
}

/// The keys of a block-YAML file's mappings (`key: value`, `- key: value`) that hold something, to find those a
/// reader left out. An empty value (`as-user-extra: null`, as kubectl 1.20 writes) means the same when left out.
enum YAMLKeys {
    private static let empty: Set<Substring> = ["null", "~", "{}", "[]", "\"\"", "''"]

    static func names(in text: String) -> Set<String> {
        var names: Set<String> = []
        for line in text.split(separator: "\n") {
            var rest = line.drop { $0 == " " }
            while rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
            if rest.hasPrefix("#") { continue }
            let key: Substring
            let value: Substring
            if let separator = rest.firstRange(of: ": ") {
                (key, value) = (rest[..<separator.lowerBound], rest[separator.upperBound...].drop { $0 == " " })
            } else if rest.hasSuffix(":") {
                (key, value) = (rest.dropLast(), "")
            } else {
                continue
            }
            let name = key.trimmingQuotes
            if !name.isEmpty, !name.contains(" "), !name.contains("{"), !empty.contains(value) { names.insert(name) }
        }
        return names
    }
}

extension Substring {
    /// `"key"` and `'key'` are the key.
    fileprivate var trimmingQuotes: String {
        guard count >= 2, let first, first == "\"" || first == "'", last == first else { return String(self) }
        return String(dropFirst().dropLast())
    }
}
