import AuthVaultApp

/// Everything a command may use from the outside world, passed in so commands run the same under test.
struct CommandContext: Sendable {
    /// The environment, read variable by variable.
    let variables: EnvironmentVariables
    /// Every variable, for what hands the environment on (exec, the browser).
    var environment: [String: String] { variables.all }
    private(set) var standardOutput: any TextOutput
    private(set) var standardError: any TextOutput
    /// Where piped secrets are read: the process's standard input, or what a test gives.
    let standardInput: any StandardInput
    /// The profile named by `--profile`, else `$AUTHVAULT_PROFILE`, else the one chosen with `profiles use`, else
    /// "default".
    let profileName: String
    /// Whether the profile was named explicitly (by flag or environment) rather than defaulted or chosen earlier.
    let profileIsExplicit: Bool
    /// The configuration file's path.
    let configPath: String
    /// Who forbade prompts, as the user knows it: `--non-interactive`, `AUTHVAULT_NON_INTERACTIVE`, a tool that
    /// said so (kubectl's `interactive: false`), or for the commands tools run (`toolCommands`) git's
    /// `GIT_TERMINAL_PROMPT=0`; nil when no one did.
    private(set) var promptsForbiddenBy: String?
    /// A helper's own rule (its standard streams are the tool's protocol): no prompt for the vault, while a sign-in
    /// the user enabled with `configure --helper-sign-in` may still run on the terminal.
    private(set) var promptsOff = false
    /// A helper's sign-in: prompts and output go to /dev/tty (`onControllingTerminal`).
    private(set) var atControllingTerminal = false
    /// No prompt in this command, whoever said so.
    var promptsForbidden: Bool { promptsOff || promptsForbiddenBy != nil }
    /// `--debug` or `$AUTHVAULT_DEBUG`: the application's trace goes to standard error.
    let tracesDecisions: Bool

    /// The commands other tools run, and scripts run on their behalf: git's `GIT_TERMINAL_PROMPT=0`, its word for
    /// git and its helpers, forbids their prompts, and never those of `login` typed in a shell that sets it.
    static let toolCommands = [
        "git-credential", "docker-credential", "kubectl-credential", "vault-token-helper", "aws-credentials", "token",
        "exec",
    ]

    /// - Parameter command: the command's name, for `toolCommands`.
    init(
        variables: EnvironmentVariables,
        standardOutput: any TextOutput,
        standardError: any TextOutput,
        standardInput: any StandardInput,
        globalArguments: ParsedArguments,
        command: String
    ) {
        self.variables = variables
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardInput = standardInput
        configPath = Application.configPath(given: globalArguments.value(GlobalOption.config), environment: variables)
        (profileName, profileIsExplicit) = Application.profileName(
            given: globalArguments.value(GlobalOption.profile),
            environment: variables, configPath: configPath)
        let yes = ["1", "true", "yes"]
        promptsForbiddenBy =
            globalArguments.flag(GlobalOption.nonInteractive)
            ? "--non-interactive"
            : yes.contains(variables["AUTHVAULT_NON_INTERACTIVE"]?.lowercased() ?? "")
                ? "AUTHVAULT_NON_INTERACTIVE"
                : variables["GIT_TERMINAL_PROMPT"] == "0" && Self.toolCommands.contains(command)
                    ? "GIT_TERMINAL_PROMPT=0" : nil
        tracesDecisions =
            globalArguments.flag(GlobalOption.debug) || yes.contains(variables["AUTHVAULT_DEBUG"]?.lowercased() ?? "")
    }

    /// The same context without prompts, by a helper's own rule (see `promptsOff`).
    func withoutPrompts() -> CommandContext {
        var copy = self
        copy.promptsOff = true
        return copy
    }

    /// The same context for a helper's sign-in: every word (both streams) on `terminal`, the controlling terminal,
    /// never on the helper's standard output, which is the tool's protocol channel; prompts allowed there.
    func onControllingTerminal(_ terminal: any TextOutput) -> CommandContext {
        var copy = self
        copy.standardOutput = terminal
        copy.standardError = terminal
        copy.promptsOff = false
        copy.atControllingTerminal = true
        return copy
    }

    /// The same context with prompts forbidden by `who` (a tool that said no one may be asked).
    func forbiddingPrompts(by who: String) -> CommandContext {
        var copy = self
        copy.promptsForbiddenBy = copy.promptsForbiddenBy ?? who
        return copy
    }

    var configStore: ConfigStore { ConfigStore(path: configPath) }

    /// Where vault files, lock files and the backend choices live: `$XDG_DATA_HOME/authvault`.
    var dataDirectory: String { ConfigLocation.dataDirectory(environment: variables) }

    /// Whether a person can be asked: a terminal on standard input and standard error.
    var isInteractive: Bool { prompter.isInteractive }

    var prompter: any SecretPrompter {
        promptsForbidden ? NoPrompter() as any SecretPrompter : Terminal(atControllingTerminal: atControllingTerminal)
    }
}
