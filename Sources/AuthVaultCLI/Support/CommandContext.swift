#if canImport(Glibc)
import Glibc
#endif

/// Everything a command may use from the outside world, passed in so commands run the same under test.
public struct CommandContext: Sendable {
    /// The environment, read variable by variable.
    public let variables: EnvironmentVariables
    /// Every variable, for what hands the environment on (exec, the browser).
    public var environment: [String: String] { variables.all }
    public let standardOutput: any TextOutput
    public let standardError: any TextOutput
    /// The profile named by `--profile`, else `$AUTHVAULT_PROFILE`, else "default".
    public let profileName: String
    /// Whether the profile was named explicitly (by flag or environment) rather than defaulted.
    public let profileIsExplicit: Bool
    /// The configuration file's path.
    public let configPath: String
    /// Prompts are forbidden: `--non-interactive`, `$AUTHVAULT_NON_INTERACTIVE`, `GIT_TERMINAL_PROMPT=0`, or a tool
    /// that said so (kubectl's `interactive: false`).
    public private(set) var promptsForbidden: Bool

    public init(
        variables: EnvironmentVariables,
        standardOutput: any TextOutput,
        standardError: any TextOutput,
        globalArguments: ParsedArguments
    ) {
        self.variables = variables
        self.standardOutput = standardOutput
        self.standardError = standardError
        let named = globalArguments.value(GlobalOption.profile) ?? variables["AUTHVAULT_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
        profileName = named ?? "default"
        profileIsExplicit = named != nil
        configPath = globalArguments.value(GlobalOption.config)
            ?? variables["AUTHVAULT_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ConfigLocation.defaultPath(environment: variables)
        let refused = ["1", "true", "yes"]
        promptsForbidden = globalArguments.flag(GlobalOption.nonInteractive)
            || refused.contains(variables["AUTHVAULT_NON_INTERACTIVE"]?.lowercased() ?? "")
            || variables["GIT_TERMINAL_PROMPT"] == "0"
    }

    /// The same context with prompts forbidden.
    public func withoutPrompts() -> CommandContext {
        var copy = self
        copy.promptsForbidden = true
        return copy
    }

    var configStore: ConfigStore { ConfigStore(path: configPath) }

    /// Where vault files, lock files and the backend choices live: `$XDG_DATA_HOME/authvault`.
    public var dataDirectory: String { ConfigLocation.dataDirectory(environment: variables) }

    /// Whether a person can be asked: a terminal on standard input and standard error.
    public var isInteractive: Bool { prompter.isInteractive }

    public var prompter: any SecretPrompter { promptsForbidden ? NoPrompter() as any SecretPrompter : Terminal() }
}

/// Where configuration lives by default, following the XDG base directory specification.
enum ConfigLocation {
    static func defaultPath(environment: EnvironmentVariables) -> String {
        base("XDG_CONFIG_HOME", fallback: ".config", environment: environment) + "/authvault/config.json"
    }

    static func dataDirectory(environment: EnvironmentVariables) -> String {
        base("XDG_DATA_HOME", fallback: ".local/share", environment: environment) + "/authvault"
    }

    /// An XDG base directory: the variable when it holds an absolute path, else `$HOME/fallback`.
    private static func base(_ variable: String, fallback: String, environment: EnvironmentVariables) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (environment["HOME"] ?? homeFromPasswordDatabase()) + "/" + fallback
    }

    private static func homeFromPasswordDatabase() -> String {
        guard let entry = getpwuid(geteuid()), let home = entry.pointee.pw_dir else { return "/" }
        return String(cString: home)
    }
}
