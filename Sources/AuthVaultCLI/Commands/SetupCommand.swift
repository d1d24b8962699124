import AuthVaultApp
import Glibc

/// `authvault setup git|docker|kubectl|aws|vault`: wires one tool to the profile in one command, as
/// `gh auth setup-git` does. The application plans and writes the change; this prints it and the command that undoes it.
enum SetupCommands {
    static let group = CommandNode.group(
        name: "setup",
        abstract: "Wire git, docker, kubectl, the AWS CLI or the Vault CLI to the profile.",
        children: [
            .command(SetupGitCommand.self), .command(SetupDockerCommand.self), .command(SetupKubectlCommand.self),
            .command(SetupAWSCommand.self), .command(SetupVaultCommand.self),
        ])

    static let dryRun = OptionSpec.flag("dry-run", help: "Print the change and write nothing.")
    static let undo = OptionSpec.flag(
        "undo", help: "Put back what this setup replaced and remove what it added (see below).")
    static let discussion = """
        Idempotent: run again, it changes nothing. Every other setting in the tool's file, and the file's mode, are \
        kept; the file is replaced atomically. The output ends with the command that undoes the change. Refused, \
        with nothing written: a name with characters the tool would not read as a name; HOME unset or relative; \
        this binary, the tool's file or a directory above either when another user could replace it (run setup \
        from an authvault only you or root can change). With --undo, under the same rules: what setup changed is \
        recorded (setup-changes.json in the data directory), so a file setup last wrote gets back its bytes from \
        before the first setup (a file setup created is removed, with the directory it made for it); an entry another \
        profile set up too is kept; a file edited since keeps the edit, loses setup's entries and gets back the values \
        setup replaced. The record keeps the file's original only sealed to the bytes setup wrote, so it opens for no \
        one once the file changes: a secret rotated or deleted there is never brought back.
        """

    /// Plans `request`, writes it unless `--dry-run`, and says what changed and how to undo it. `words` are the
    /// command's own arguments, from which the undoing command is written.
    static func run(_ request: SetupRequest, arguments: ParsedArguments, context: CommandContext) throws(CLIError) {
        let words = words(request)
        let undoing = arguments.flag(undo)
        let dry = arguments.flag(dryRun)
        let setup = ToolSetup(application: context.application, profile: context.profileName, executable: executable())
        do {
            let plan = try setup.plan(request, undo: undoing)
            if !dry { try setup.apply(plan) }
            let out = context.standardOutput
            let profile = context.profileName
            if plan.changesNothing {
                out.line(
                    "\(request.tool.rawValue) is \(undoing ? "not" : "already") set up for profile '\(profile)' (\(plan.target)): nothing changed."
                )
            } else {
                out.line("\(dry ? "Would change" : "Changed") \(plan.target):")
                plan.changes.forEach { out.line("  \($0)") }
                plan.notes.forEach { out.line("  (\($0))") }
                switch plan.helperHost {
                case .add(let host)?: out.line("  helper hosts of profile '\(profile)': add \(host)")
                case .remove(let host)?: out.line("  helper hosts of profile '\(profile)': remove \(host)")
                case nil: break
                }
            }
            let inverse = ["authvault", "--profile", profile, "setup"] + words + (undoing ? [] : ["--undo"])
            out.line("\(undoing ? "Set up again" : "Undo") with: \(ShellWords.line(inverse))")
            if dry { out.line("Dry run: nothing was written.") }
        } catch {
            throw remedy(error)
        }
    }

    /// The setup command's own words for `request`, after `setup`.
    static func words(_ request: SetupRequest) -> [String] {
        switch request {
        case .git(let host): [SetupGitCommand.name, "--\(SetupGitCommand.option.long)", host]
        case .docker(let registry): [SetupDockerCommand.name, "--\(SetupDockerCommand.option.long)", registry]
        case .kubectl(let context, let user):
            [SetupKubectlCommand.name] + (context.map { ["--\(SetupKubectlCommand.contextName.long)", $0] } ?? [])
                + (user.map { ["--\(SetupKubectlCommand.user.long)", $0] } ?? [])
        case .aws(let awsProfile): [SetupAWSCommand.name, "--\(SetupAWSCommand.option.long)", awsProfile]
        case .vault: [SetupVaultCommand.name]
        }
    }

    /// The absolute path of this binary, which the tools will run: /proc/self/exe, whatever name started it.
    static func executable() -> String {
        guard let path = realpath("/proc/self/exe", nil) else { return "/usr/bin/authvault" }
        defer { free(path) }
        return String(cString: path)
    }

    /// The option that carried a name.
    private static func option(for name: SetupName) -> String {
        switch name {
        case .awsProfile: SetupAWSCommand.option.long
        case .kubeContext: SetupKubectlCommand.contextName.long
        case .kubeUser: SetupKubectlCommand.user.long
        case .registry: SetupDockerCommand.option.long
        case .gitHost: SetupGitCommand.option.long
        }
    }

    static func remedy(_ error: SetupError) -> CLIError {
        switch error {
        case .configuration(let configError): return CLIErrors.from(configError)
        case .toolMissing(let name): return CLIError(error.description + " Install \(name), or put it on the PATH.")
        case .noSuchContext: return CLIError(error.description + " Name one with --context.", status: .usage)
        case .kubeconfigUserTaken: return CLIError(error.description + " Name another with --user.", status: .usage)
        case .helperLinkMissing(let path):
            return CLIError(
                error.description
                    + " 'make install' links it; or: ln -s \(ShellWords.quoted(executable())) \(ShellWords.quoted(path))"
            )
        case .kubeconfigFieldsUnknown: return CLIError(error.description + " Read it with a newer kubectl on the PATH.")
        case .untrustedProgram:
            return CLIError(
                error.description + " Run setup from an authvault installed where only you or root can change it "
                    + "('make install' puts it in /usr/local/bin).")
        case .homeUnusable: return CLIError(error.description + " Set HOME to your home directory's absolute path.")
        case .invalidName(let name, _, _):
            return CLIError("--\(option(for: name)): " + error.description, status: .usage)
        case .clusterServerRefused:
            return CLIError(
                error.description + " Point the context's cluster at its https server, or write the user alone with "
                    + "'setup kubectl' without --context.", status: .usage)
        case .noIdentityPool(let profile):
            return CLIError(
                error.description + " Give it one: "
                    + Remedy.command("configure", profile: profile, "--identity-pool-id ID"), status: .usage)
        case .file, .untrusted, .malformed, .toolFailed: return CLIError(error.description)
        }
    }
}

/// A setup whose one required option names what to wire.
protocol SingleValueSetup: CLICommand {
    static var option: OptionSpec { get }
    static func request(_ value: String) -> SetupRequest
    init(value: String, arguments: ParsedArguments)
    var value: String { get }
    var arguments: ParsedArguments { get }
}

extension SingleValueSetup {
    init(arguments: ParsedArguments) throws(UsageError) {
        guard let value = arguments.value(Self.option), !value.isEmpty else {
            throw UsageError("--\(Self.option.long) is required.")
        }
        self.init(value: value, arguments: arguments)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        try SetupCommands.run(Self.request(value), arguments: arguments, context: context)
    }
}

struct SetupGitCommand: SingleValueSetup {
    static let option = OptionSpec.value(
        "host", placeholder: "host",
        help:
            "The git server's host (host:port for a port), with a path prefix (host/acme) when this profile is the account for the repositories under it: git asks authvault for https://HOST."
    )
    static let name = "git"
    static let spec = CommandSpec(
        name: name,
        abstract: "Make git use authvault for an https host (git config --global), and list the host for the profile.",
        discussion: SetupCommands.discussion + " " + """
            Several accounts on one host: run setup git for each profile. Once more than one profile lists the host,             the host's entry names no profile and the helper chooses: --profile or $AUTHVAULT_PROFILE; else the             longest path prefix (setup git --host HOST/PREFIX, which turns on credential.useHttpPath for the host)             that the repository's path falls under; else the profile signed in as the user in the remote URL             (https://USER@HOST/...); else the current profile or the only one left; else no token, and one line             naming the profiles. The undo of one leaves the entry to the others.
            """, options: [option, SetupCommands.dryRun, SetupCommands.undo])
    static func request(_ value: String) -> SetupRequest { .git(host: value) }
    let value: String, arguments: ParsedArguments
}

struct SetupDockerCommand: SingleValueSetup {
    static let option = OptionSpec.value(
        "registry", placeholder: "host", help: "The registry's host (host:port for a port).")
    static let name = "docker"
    static let spec = CommandSpec(
        name: name,
        abstract:
            "Make docker use authvault for a registry (credHelpers in its config.json), and list the host for the profile.",
        discussion: SetupCommands.discussion, options: [option, SetupCommands.dryRun, SetupCommands.undo])
    static func request(_ value: String) -> SetupRequest { .docker(registry: value) }
    let value: String, arguments: ParsedArguments
}

struct SetupKubectlCommand: CLICommand {
    static let contextName = OptionSpec.value(
        "context", placeholder: "name",
        help: "A kubeconfig context to point at the user; its cluster's https server is listed for the profile.")
    static let user = OptionSpec.value(
        "user", placeholder: "name", help: "The kubeconfig user to write (default: authvault-PROFILE).")
    static let name = "kubectl"
    static let spec = CommandSpec(
        name: name,
        abstract:
            "Add a kubeconfig user whose token comes from authvault (an exec plugin with provideClusterInfo), optionally for a context.",
        discussion: SetupCommands.discussion + " " + kubeconfigFile,
        options: [contextName, user, SetupCommands.dryRun, SetupCommands.undo])
    static let kubeconfigFile = """
        The file is $KUBECONFIG's (of several, the first that exists, as kubectl chooses) or ~/.kube/config. It is \
        written as JSON, which kubectl reads as YAML; a YAML file is read with the kubectl on the PATH, any version \
        (Debian's 1.20 too), and without kubectl a setup can write a new file or one it wrote before. kubectl names \
        the cluster's server to the plugin (provideClusterInfo), which hands a token only to a server the profile \
        lists: with --context that server is listed (it must be https); without, list a server with \
        'configure --helper-host'. While the file is as setup left it, --undo writes back its own bytes, a YAML \
        file's comments and all.
        """
    let contextName: String?, user: String?, arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        contextName = arguments.value(Self.contextName)
        user = arguments.value(Self.user)
        self.arguments = arguments
    }

    func run(in context: CommandContext) async throws(CLIError) {
        try SetupCommands.run(.kubectl(context: contextName, user: user), arguments: arguments, context: context)
    }
}

struct SetupAWSCommand: SingleValueSetup {
    static let option = OptionSpec.value(
        "aws-profile", placeholder: "name", help: "The AWS config profile that gets credential_process.")
    static let name = "aws"
    static let spec = CommandSpec(
        name: name, abstract: "Give an AWS config profile its credentials from authvault (credential_process).",
        discussion: SetupCommands.discussion, options: [option, SetupCommands.dryRun, SetupCommands.undo])
    static func request(_ value: String) -> SetupRequest { .aws(awsProfile: value) }
    let value: String, arguments: ParsedArguments
}

struct SetupVaultCommand: CLICommand {
    static let name = "vault"
    static let spec = CommandSpec(
        name: name,
        abstract: "Make the HashiCorp Vault CLI keep its token with authvault (token_helper in ~/.vault).",
        discussion: SetupCommands.discussion, options: [SetupCommands.dryRun, SetupCommands.undo])
    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
    }

    func run(in context: CommandContext) async throws(CLIError) {
        try SetupCommands.run(.vault, arguments: arguments, context: context)
    }
}
