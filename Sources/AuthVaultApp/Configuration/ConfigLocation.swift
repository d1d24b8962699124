#if canImport(Glibc)
    internal import Glibc
#endif

/// Where configuration and data live by default, following the XDG base directory specification.
public enum ConfigLocation {
    public static func defaultPath(environment: EnvironmentVariables) -> String {
        base("XDG_CONFIG_HOME", fallback: ".config", environment: environment) + "/authvault/config.json"
    }

    public static func dataDirectory(environment: EnvironmentVariables) -> String {
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
