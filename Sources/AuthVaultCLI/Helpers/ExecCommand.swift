#if canImport(Glibc)
    import AuthVaultApp
    import Glibc
    import SystemPlumbing
#endif

/// `authvault exec -- CMD ARGS...`: runs a command with the token in its environment — only because the user asked;
/// no other command ever puts a token in a child's environment. The command gets nothing else of ours.
struct ExecCommand: CLICommand {
    static let variable = TypedOption<String>(
        "env", placeholder: "name",
        help: "The environment variable to set (AUTHVAULT_TOKEN, with --token-file AUTHVAULT_TOKEN_FILE).",
        expected: "a variable name such as API_TOKEN", default: "AUTHVAULT_TOKEN"
    ) { name in
        isVariableName(name) ? name : nil
    }
    static let idToken = OptionSpec.flag("id", help: "Pass the ID token instead of the access token.")
    static let tokenFile = OptionSpec.flag(
        "token-file",
        help:
            "Pass the path of a private file that holds a valid token, rewritten before each expiry while the command runs."
    )
    static let aws = OptionSpec.flag(
        "aws",
        help:
            "Serve the profile's AWS credentials from its identity pool to the command, fresh for as long as it runs "
            + "(the SDKs' container-credentials endpoint), instead of a token.")
    static let envCredentials = OptionSpec.flag(
        "env-credentials",
        help: "With --aws: fixed AWS_ACCESS_KEY_ID, ... variables instead of the endpoint, for tools that predate it.")
    static let guest = OptionSpec.flag(
        "guest", help: "With --aws: the identity pool's guest credentials, without a session.")
    static let name = "exec"
    static let spec = CommandSpec(
        name: name,
        abstract: "Run a command with a valid token in its environment.",
        discussion: """
            Example: authvault exec --env API_TOKEN -- ./deploy.sh. The command replaces authvault (its exit status is
            the command's; 127 when it is not found, 126 when it cannot be run, as env(1) says), except with
            --token-file and --aws, below. It gets this
            environment without authvault's own AUTHVAULT_* variables (the vault passphrase never reaches it), plus
            the token in the variable asked for.

            With --token-file (authvault exec --token-file -- ./long-job.sh), the variable (AUTHVAULT_TOKEN_FILE unless
            --env names another) holds the path of a file, mode 0600 in a new 0700 directory under $XDG_RUNTIME_DIR
            (else $TMPDIR or /tmp), holding a valid token (--id: the ID token), replaced atomically ahead of each
            expiry for as long as the command runs; authvault stays its parent as with --aws below, and removes the
            file and its directory when the command ends. A parent directory other users can write without the
            sticky bit (/tmp has it), or that another user owns, is refused with the chmod or chown that fixes it.

            With --aws (authvault exec --aws -- aws s3 ls), authvault stays the command's parent and serves it the
            AWS SDKs' container-credentials endpoint on 127.0.0.1 for as long as it runs:
            AWS_CONTAINER_CREDENTIALS_FULL_URI and AWS_CONTAINER_AUTHORIZATION_TOKEN (random for each run; a request
            without it gets 401, with a wrong one 403, and one whose Host is not the URL's 127.0.0.1:PORT 403). Every answer holds credentials with at least 15 minutes left,
            so the AWS CLI and SDKs in a job of any length refresh by themselves. AWS variables that would win over
            the endpoint are removed from the command's environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
            AWS_SESSION_TOKEN, AWS_SECURITY_TOKEN, AWS_CREDENTIAL_EXPIRATION, AWS_PROFILE, AWS_DEFAULT_PROFILE,
            AWS_CONTAINER_CREDENTIALS_RELATIVE_URI, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE,
            AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (set the region with AWS_REGION). SIGINT, SIGTERM and SIGHUP sent to authvault are passed on to the command
            (a terminal's Ctrl-C reaches the command directly and is not passed on again); authvault exits with its status
            (128 + the signal's number when a signal ended it) and closes the endpoint. --aws --env-credentials
            gives fixed AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN instead (valid at least 15
            minutes, never renewed) and replaces authvault as without --aws.
            """,
        options: [variable.spec, idToken, tokenFile, aws, envCredentials, guest],
        acceptsTrailingArguments: true)

    let name: String
    let kind: TokenKind
    let passesTokenFile: Bool
    let passesAWSCredentials: Bool
    let servesAWSEndpoint: Bool
    let asGuest: Bool
    let command: [String]

    init(arguments: ParsedArguments) throws(UsageError) {
        passesTokenFile = arguments.flag(Self.tokenFile)
        let named = arguments.value(Self.variable.spec) != nil
        name = passesTokenFile && !named ? "AUTHVAULT_TOKEN_FILE" : try arguments.value(Self.variable)
        kind = arguments.flag(Self.idToken) ? .id : .access
        passesAWSCredentials = arguments.flag(Self.aws)
        servesAWSEndpoint = passesAWSCredentials && !arguments.flag(Self.envCredentials)
        asGuest = arguments.flag(Self.guest)
        command = arguments.positionals
        guard !command.isEmpty else { throw UsageError("Give the command to run after '--'.") }
        if passesAWSCredentials && (arguments.flag(Self.idToken) || named || passesTokenFile) {
            throw UsageError("--aws passes AWS credentials, not a token: leave out --env, --id and --token-file.")
        }
        if asGuest && !passesAWSCredentials { throw UsageError("--guest goes with --aws.") }
        if arguments.flag(Self.envCredentials) && !passesAWSCredentials {
            throw UsageError("--env-credentials goes with --aws.")
        }
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
        if servesAWSEndpoint {
            try await runServingAWSCredentials(environment, context: context)
        }
        if passesTokenFile {
            try await runKeepingTokenFile(environment, context: context)
        }
        if passesAWSCredentials {
            for (name, value) in try await AWSCredentials.fetch(guest: asGuest, context: context).environment {
                environment[name] = value
            }
        } else {
            environment[name] = try await HelperToken.fetch(kind, context: context).token
        }
        CoreDumps.restoreInheritedLimit()
        let reason = CStringArrays.with(command, environment) { argv, envp in
            // execve returns only when it failed.
            CommandSearch.start(command[0], environment: environment) { path in
                execve(path, argv, envp)
                return errno
            }
        }
        CoreDumps.refuse()
        throw Self.cannotRun(command[0], reason)
    }

    /// `--aws`: the command runs as authvault's child with the endpoint served until it ends.
    private func runServingAWSCredentials(_ inherited: [String: String], context: CommandContext)
        async throws(CLIError) -> Never
    {
        // No session (exit 3, with the login to run) or no pool is said here, before the start, not by the SDK.
        let endpoint = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.awsCredentialsEndpoint(
                profile: context.profileName, guest: asGuest, isExplicit: context.profileIsExplicit)
        }
        var environment = inherited.filter { !Self.shadowingAWSVariables.contains($0.key) }
        for (name, value) in endpoint.environment { environment[name] = value }
        try await supervise(environment) { endpoint.close() }
    }

    /// `--token-file`: the command runs as authvault's child with the file kept fresh until it ends.
    private func runKeepingTokenFile(_ inherited: [String: String], context: CommandContext)
        async throws(CLIError) -> Never
    {
        let file: TokenFile
        do {
            file = try await context.application.tokenFile(
                kind, profile: context.profileName, isExplicit: context.profileIsExplicit)
        } catch {
            throw CLIErrors.from(error, profile: context.profileName)
        }
        var environment = inherited
        environment[name] = file.path
        try await supervise(environment) { file.remove() }
    }

    /// Runs the command as authvault's child, then `ended` (closing what served it), then exits with the
    /// command's status, as if the command had replaced authvault.
    private func supervise(_ environment: [String: String], ended: () -> Void) async throws(CLIError) -> Never {
        let outcome = await SupervisedChild.run(command, environment: environment)
        ended()
        switch outcome {
        case .success(let status): exit(status)
        case .failure(let failure): throw Self.cannotRun(command[0], failure.code)
        }
    }

    /// What the AWS SDKs would take before the container endpoint (or instead of it): removed for --aws.
    static let shadowingAWSVariables: Set<String> = [
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
        "AWS_CREDENTIAL_EXPIRATION", "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
        // The SDKs read the token from this file rather than from the variable when both are set.
        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
    ]

    private static func cannotRun(_ name: String, _ reason: Int32) -> CLIError {
        CLIError(
            "Cannot run '\(name)': \(String(cString: strerror(reason))).",
            status: reason == ENOENT ? .commandNotFound : .commandCannotRun)
    }
}
