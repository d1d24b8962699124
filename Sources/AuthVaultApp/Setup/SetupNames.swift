/// The names a setup writes into other tools' files, checked before anything is read or written: only characters
/// the tool reads as part of a name, so none can end a line, a section or a key there (an AWS profile name with a
/// `]` and a line break would add a `credential_process` of its own).
enum SetupNames {
    static func check(_ request: SetupRequest) throws(SetupError) {
        switch request {
        case .git(let host): try gitHost(host)
        case .docker(let registry): try hostName(registry, as: .registry)
        case .kubectl(let context, let user):
            if let context { try name(context, as: .kubeContext, extra: kubeExtras, rule: kubeRule) }
            if let user { try name(user, as: .kubeUser, extra: kubeExtras, rule: kubeRule) }
        case .aws(let awsProfile): try name(awsProfile, as: .awsProfile, extra: "-_.+@", rule: awsRule)
        case .vault: break
        }
    }

    /// kubeconfig names such as `arn:aws:eks:eu-west-1:123456789012:cluster/prod` or `admin@prod`.
    private static let kubeExtras = "-_.:@/+"
    private static let kubeRule = "use 1 to 253 letters, digits, '-', '_', '.', ':', '@', '/' or '+'"
    private static let awsRule = "use 1 to 128 letters, digits, '-', '_', '.', '+' or '@'"

    private static func name(_ value: String, as kind: SetupName, extra: String, rule: String) throws(SetupError) {
        let limit = kind == .awsProfile ? 128 : 253
        let allowed = value.unicodeScalars.allSatisfy {
            $0.isASCII && (isAlphanumeric($0) || extra.unicodeScalars.contains($0))
        }
        guard !value.isEmpty, value.utf8.count <= limit, allowed else {
            throw .invalidName(kind, value: value, rule: rule)
        }
    }

    /// A host or host:port, as git and docker name a server (no path: a setup wires a whole host).
    private static func hostName(_ value: String, as kind: SetupName) throws(SetupError) {
        guard ProfileValidation.isHelperHost(value, allowingPath: false) else {
            throw .invalidName(
                kind, value: value,
                rule: "expected a host such as example.com, or host:port such as registry.example.com:5000")
        }
    }

    /// A host or host:port, with a path prefix when one account of several on the host owns it (git sends the
    /// path with `credential.useHttpPath`).
    private static func gitHost(_ value: String) throws(SetupError) {
        if let problem = ProfileValidation.helperHostProblem(ProfileValidation.normalizedHelperHost(value)) {
            throw .invalidName(
                .gitHost, value: value,
                rule: problem + " (for example git.example.com, git.example.com:8443 or git.example.com/team)")
        }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
