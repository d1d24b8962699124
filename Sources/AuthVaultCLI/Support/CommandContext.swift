#if canImport(Glibc)
import Glibc
#endif

/// Everything a command may use from the outside world, passed in so commands run the same under test.
public struct CommandContext: Sendable {
    public let environment: [String: String]
    public let standardOutput: any TextOutput
    public let standardError: any TextOutput
    /// The profile named by `--profile`, else `$AUTHVAULT_PROFILE`, else "default".
    public let profileName: String
    /// Whether the profile was named explicitly (by flag or environment) rather than defaulted.
    public let profileIsExplicit: Bool
    /// The configuration file's path.
    public let configPath: String

    public init(
        environment: [String: String],
        standardOutput: any TextOutput,
        standardError: any TextOutput,
        globalArguments: ParsedArguments
    ) {
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
        let named = globalArguments.value(GlobalOption.profile) ?? environment["AUTHVAULT_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
        profileName = named ?? "default"
        profileIsExplicit = named != nil
        configPath = globalArguments.value(GlobalOption.config)
            ?? environment["AUTHVAULT_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ConfigLocation.defaultPath(environment: environment)
    }

    var configStore: ConfigStore { ConfigStore(path: configPath) }
}

/// Where configuration lives by default, following the XDG base directory specification.
enum ConfigLocation {
    static func defaultPath(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? homeFromPasswordDatabase()) + "/.config"
        }
        return base + "/authvault/config.json"
    }

    private static func homeFromPasswordDatabase() -> String {
        guard let entry = getpwuid(geteuid()), let home = entry.pointee.pw_dir else { return "/" }
        return String(cString: home)
    }
}
