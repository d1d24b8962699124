#if canImport(Glibc)
    import AuthVaultApp
    import Glibc
    import SystemPlumbing
#endif

/// `authvault exec -- CMD ARGS...`: runs a command with the token in its environment — only because the user asked;
/// no other command ever puts a token in a child's environment. The command gets nothing else of ours.
struct ExecCommand: CLICommand {
    static let variable = TypedOption<String>(
        "env", placeholder: "name", help: "The environment variable to set.",
        expected: "a variable name such as API_TOKEN", default: "AUTHVAULT_TOKEN"
    ) { name in
        isVariableName(name) ? name : nil
    }
    static let idToken = OptionSpec.flag("id", help: "Pass the ID token instead of the access token.")
    static let aws = OptionSpec.flag(
        "aws",
        help: "Pass the profile's AWS credentials (AWS_ACCESS_KEY_ID, ...) from its identity pool instead of a token.")
    static let guest = OptionSpec.flag(
        "guest", help: "With --aws: the identity pool's guest credentials, without a session.")
    static let spec = CommandSpec(
        name: "exec",
        abstract: "Run a command with a valid token in its environment.",
        discussion: """
            Example: authvault exec --env API_TOKEN -- ./deploy.sh. The command replaces authvault (its exit status is
            the command's; 127 when it is not found, 126 when it cannot be run, as env(1) says). It gets this environment without authvault's own AUTHVAULT_* variables (the vault
            passphrase never reaches it), plus the token in the variable asked for; with --aws, the AWS credentials
            instead: authvault exec --aws -- aws s3 ls.
            """,
        options: [variable.spec, idToken, aws, guest],
        acceptsTrailingArguments: true)

    let name: String
    let kind: TokenKind
    let passesAWSCredentials: Bool
    let asGuest: Bool
    let command: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        name = try arguments.value(Self.variable)
        kind = arguments.flag(Self.idToken) ? .id : .access
        passesAWSCredentials = arguments.flag(Self.aws)
        asGuest = arguments.flag(Self.guest)
        command = arguments.positionals
        guard !command.isEmpty else { throw UsageError("Give the command to run after '--'.") }
        if passesAWSCredentials && (arguments.flag(Self.idToken) || arguments.value(Self.variable.spec) != nil) {
            throw UsageError("--aws passes AWS credentials, not a token: leave out --env and --id.")
        }
        if asGuest && !passesAWSCredentials { throw UsageError("--guest goes with --aws.") }
    }

    /// Letters, digits and '_', not starting with a digit: a name every shell and exec accepts.
    static func isVariableName(_ name: String) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard let first = name.utf8.first, !digits.contains(first) else { return false }
        return name.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || digits.contains($0)
        }
    }

    func run(in context: CommandContext) async throws(CLIError) {
        // What was asked for and nothing else of ours: no AUTHVAULT_* variable, the user's core-size limit.
        var environment = ChildProcess.environment(from: context.environment)
        if passesAWSCredentials {
            for (name, value) in try await AWSCredentials.fetch(guest: asGuest, context: context).environment {
                environment[name] = value
            }
        } else {
            environment[name] = try await HelperToken.fetch(kind, context: context).token
        }
        // execvp's PATH search, with the child's environment (Glibc's execvpe is not visible from Swift).
        let candidates =
            command[0].contains("/")
            ? [command[0]]
            : (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(command[0])" }
        CoreDumps.restoreInheritedLimit()
        let reason = CStringArrays.with(command, environment) { argv, envp in
            var reason = ENOENT
            for path in candidates {
                execve(path, argv, envp)
                if errno != ENOENT { reason = errno }
            }
            return reason
        }
        CoreDumps.refuse()
        throw CLIError(
            "Cannot run '\(command[0])': \(String(cString: strerror(reason))).",
            status: reason == ENOENT ? .commandNotFound : .commandCannotRun)
    }
}
