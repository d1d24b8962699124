import AuthVaultApp
import BoundedJSON

/// `authvault kubectl-credential`: a kubectl exec credential plugin printing an ExecCredential. It echoes the
/// apiVersion kubectl sent in `KUBERNETES_EXEC_INFO` and honours its `interactive: false` by never prompting.
struct KubectlCredentialCommand: CLICommand {
    /// The words `--token` takes, in the order help lists them.
    enum Choice: String, OptionChoice { case id, access }
    static let tokenKind = TypedOption<Choice>(
        "token", help: "Which token to hand over (id is what Kubernetes' OIDC authenticator checks).", default: .id)
    static let name = "kubectl-credential"
    static let spec = CommandSpec(
        name: name,
        abstract: "kubectl exec credential plugin: an ExecCredential with the profile's token.",
        discussion: """
            In a kubeconfig user: exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: authvault,
            args: [kubectl-credential, --profile, work], provideClusterInfo: true, interactiveMode: IfAvailable}
            ('setup kubectl' writes it). provideClusterInfo makes kubectl name the cluster's server, which must be https
            and its host listed with 'configure --helper-host'; without it no token is handed over. IfAvailable gives
            the plugin kubectl's terminal when there is one, for a sign-in 'configure --helper-sign-in on' allows.
            """,
        options: [tokenKind.spec])

    let kind: TokenKind

    init(arguments: ParsedArguments) throws(UsageError) {
        switch try arguments.value(Self.tokenKind) {
        case .id: kind = .id
        case .access: kind = .access
        }
    }

    nonisolated(nonsending) func run(in context: CommandContext) async throws(CLIError) {
        let info = ExecInfo(environment: context.variables["KUBERNETES_EXEC_INFO"])
        let effective = info.interactive ? context : context.forbiddingPrompts(by: "kubectl (interactive: false)")
        let token = try await HelperToken.answer(kind, for: .kubectl, url: info.server, context: effective)
        let status = JSONValue.object(
            ("expirationTimestamp", .string(TimeText.rfc3339(token.expiresAt))),
            ("token", .string(token.token)))
        JSONOutput.write(
            .object(
                ("apiVersion", .string(info.apiVersion)), ("kind", .string("ExecCredential")),
                ("status", status)), to: context.standardOutput)
    }

    /// What kubectl says about the call; kubectl 1.20 sends v1beta1, newer ones v1. The cluster's server only
    /// with `provideClusterInfo: true`.
    private struct ExecInfo {
        var apiVersion = "client.authentication.k8s.io/v1beta1"
        var interactive = false
        var server: String?

        init(environment value: String?) {
            guard let value, let payload = JSONValue.parse(Array(value.utf8)) else { return }
            if let version = payload["apiVersion"]?.string, version.hasPrefix("client.authentication.k8s.io/") {
                apiVersion = version
            }
            interactive = payload["spec"]?["interactive"]?.bool ?? false
            server = payload["spec"]?["cluster"]?["server"]?.string
        }
    }
}
