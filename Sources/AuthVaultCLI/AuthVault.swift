import AuthVaultApp

/// The `authvault` command line: the command tree, and running one invocation of it.
public enum AuthVault {
    static let version = "0.1.0"

    static let commands = CommandNode.group(
        name: "authvault",
        abstract: "Sign in to Amazon Cognito and keep the tokens safe, for you and the tools you use.",
        children: [
            .command(LoginCommand.self),
            .command(TokenCommand.self),
            .command(StatusCommand.self),
            .command(RefreshCommand.self),
            .command(LogoutCommand.self),
            .command(WhoAmICommand.self),
            .command(SignUpCommand.self),
            .command(ConfirmSignUpCommand.self),
            .command(ResendCodeCommand.self),
            .command(ForgotPasswordCommand.self),
            .command(ConfirmForgotPasswordCommand.self),
            .command(ChangePasswordCommand.self),
            MFACommands.group,
            DevicesCommands.group,
            .command(ConfigureCommand.self),
            SetupCommands.group,
            ProfilesCommands.group,
            VaultCommands.group,
            .command(ResetCommand.self),
            .command(AgentCommand.self),
            .command(ExecCommand.self),
            .command(AWSCredentialsCommand.self),
            .command(GitCredentialCommand.self),
            .command(DockerCredentialCommand.self),
            .command(KubectlCredentialCommand.self),
            .command(VaultTokenHelperCommand.self),
            .command(CompletionCommand.self),
            .command(VersionCommand.self),
            .command(HelpCommand.self),
        ]
    )

    /// Commands run by name only, listed nowhere: the manual pages' generator, for packaging.
    static let hiddenCommands = [CommandNode.command(ManPagesCommand.self)]

    /// The names other tools run helpers by (installed as links to the binary): each stands for a command. Pairs,
    /// not a dictionary: every start-up reads this, and a dictionary's first use costs more than the search.
    static let helperNames = [
        ("git-credential-authvault", "git-credential"),
        ("docker-credential-authvault", "docker-credential"),
        ("vault-token-helper-authvault", "vault-token-helper"),
    ]

    /// The program, from `main`: refuses core dumps, reads the process's arguments, environment and standard
    /// input, and returns the exit status. The one public declaration of the command line. On the caller's
    /// executor (the main thread): a hop to the global executor would start its thread pool on every call.
    nonisolated(nonsending) public static func main() async -> Int32 {
        CoreDumps.refuse()
        let process = ProcessArguments.current()
        let arguments = arguments(programName: process[0], Array(process.dropFirst()))
        return await run(arguments: arguments, environment: .process).rawValue
    }

    /// The arguments as the command tree reads them: run as `git-credential-authvault get`, the program is
    /// `authvault git-credential get`.
    static func arguments(programName: String, _ arguments: [String]) -> [String] {
        let base = programName.split(separator: "/").last.map(String.init) ?? programName
        guard let (_, command) = helperNames.first(where: { $0.0 == base }) else { return arguments }
        return [command] + arguments
    }

    /// Runs one invocation with `environment`, what it prints captured and dropped: for the fuzz targets, which
    /// test only how the tools' input is parsed.
    package static func runDiscardingOutput(arguments: [String], environment: [String: String]) async -> Int32 {
        await run(
            arguments: arguments, environment: environment, standardOutput: CapturedOutput(),
            standardError: CapturedOutput()
        ).rawValue
    }

    /// Runs one invocation with `environment` as its environment (tests).
    nonisolated(nonsending) static func run(
        arguments: [String],
        environment: [String: String],
        standardOutput: any TextOutput = FileDescriptorOutput.standardOutput,
        standardError: any TextOutput = FileDescriptorOutput.standardError,
        standardInput: (any StandardInput)? = nil
    ) async -> ExitStatus {
        await run(
            arguments: arguments, environment: EnvironmentVariables(environment), standardOutput: standardOutput,
            standardError: standardError, standardInput: standardInput)
    }

    /// Runs one invocation and returns its exit status. Nothing here calls `exit`, so tests can run it in-process.
    /// `standardInput` nil reads the process's own.
    /// On the caller's executor, like `CLICommand.run`.
    nonisolated(nonsending) static func run(
        arguments: [String],
        environment: EnvironmentVariables,
        standardOutput: any TextOutput = FileDescriptorOutput.standardOutput,
        standardError: any TextOutput = FileDescriptorOutput.standardError,
        standardInput: (any StandardInput)? = nil
    ) async -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try ArgumentParser(root: commands, hidden: hiddenCommands).parse(arguments)
        } catch {
            standardError.line("Error: \(error.description)")
            return .usage
        }
        switch invocation {
        case .version:
            standardOutput.line("authvault \(version)")
            return .success
        case .help(let node, let path):
            standardOutput.write(HelpFormatter.render(node, path: path))
            return .success
        case .run(let type, let parsed, let path):
            let context = CommandContext(
                variables: environment, standardOutput: standardOutput,
                standardError: standardError, standardInput: standardInput ?? ProcessStandardInput(),
                globalArguments: parsed, command: type.name)
            do {
                let command = try type.init(arguments: parsed)
                try await command.run(in: context)
                return .success
            } catch let error as UsageError {
                var error = error
                error.commandPath = path.joined(separator: " ")
                standardError.line("Error: \(error.description)")
                return .usage
            } catch let error as CLIError {
                if context.tracesDecisions, let underlying = error.underlying {
                    standardError.line("authvault debug: underneath: \(underlying)")
                }
                if !error.isAlreadySaid { standardError.line("Error: \(error.message)") }
                return error.status
            } catch {
                standardError.line("Error: \(error)")
                return .failure
            }
        }
    }
}
