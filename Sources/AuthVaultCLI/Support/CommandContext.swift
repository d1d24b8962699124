import AuthVaultApp

/// Everything a command may use from the outside world, passed in so commands run the same under test.
struct CommandContext: Sendable {
    /// The environment, read variable by variable.
    let variables: EnvironmentVariables
    /// Every variable, for what hands the environment on (exec, the browser).
    var environment: [String: String] { variables.all }
    let standardOutput: any TextOutput
    let standardError: any TextOutput
    /// Where piped secrets are read: the process's standard input, or what a test gives.
    let standardInput: any StandardInput
    /// The profile named by `--profile`, else `$AUTHVAULT_PROFILE`, else the one chosen with `profiles use`, else
    /// "default".
    let profileName: String
    /// Whether the profile was named explicitly (by flag or environment) rather than defaulted or chosen earlier.
    let profileIsExplicit: Bool
    /// The configuration file's path.
    let configPath: String
    /// Prompts are forbidden: `--non-interactive`, `$AUTHVAULT_NON_INTERACTIVE`, `GIT_TERMINAL_PROMPT=0`, or a tool
    /// that said so (kubectl's `interactive: false`).
    private(set) var promptsForbidden: Bool
    /// `--debug` or `$AUTHVAULT_DEBUG`: the application's trace goes to standard error.
    let tracesDecisions: Bool

    init(
        variables: EnvironmentVariables,
        standardOutput: any TextOutput,
        standardError: any TextOutput,
        standardInput: any StandardInput,
        globalArguments: ParsedArguments
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
        promptsForbidden =
            globalArguments.flag(GlobalOption.nonInteractive)
            || yes.contains(variables["AUTHVAULT_NON_INTERACTIVE"]?.lowercased() ?? "")
            || variables["GIT_TERMINAL_PROMPT"] == "0"
        tracesDecisions =
            globalArguments.flag(GlobalOption.debug) || yes.contains(variables["AUTHVAULT_DEBUG"]?.lowercased() ?? "")
    }

    /// The same context with prompts forbidden.
    func withoutPrompts() -> CommandContext {
        var copy = self
        copy.promptsForbidden = true
        return copy
    }

    var configStore: ConfigStore { ConfigStore(path: configPath) }

    /// Where vault files, lock files and the backend choices live: `$XDG_DATA_HOME/authvault`.
    var dataDirectory: String { ConfigLocation.dataDirectory(environment: variables) }

    /// Whether a person can be asked: a terminal on standard input and standard error.
    var isInteractive: Bool { prompter.isInteractive }

    var prompter: any SecretPrompter { promptsForbidden ? NoPrompter() as any SecretPrompter : Terminal() }
}
