import CognitoAuth
import DebugTrace
import FoundationEssentials

/// The application behind the command line: a profile's configuration, its vault and store, and a token for a tool,
/// with the outside world — the environment, a person to ask, a place for notices, the clock — passed in. It never prints,
/// prompts on its own, or reads the process environment, so a test or another program can run every use in-process.
public struct Application: Sendable {
    public let environment: EnvironmentVariables
    /// The configuration file's path.
    public let configPath: String
    /// Who answers a prompt (a passphrase); `NoPrompter` where nobody may be asked.
    public private(set) var prompter: any SecretPrompter
    /// Said once, for a person to read: the first choice of a vault backend.
    public let notice: @Sendable (ApplicationNotice) -> Void
    /// Sent as the HTTP User-Agent.
    public let userAgent: String
    /// Unix seconds by this machine's clock: the profiles' stores decide on expiry by it plus the offset of the
    /// identity provider's clock that they learn.
    public let now: @Sendable () -> Double
    /// The clock a caller passed in (a test's), nil on the system clock.
    private let givenClock: (@Sendable () -> Double)?
    /// What the application and the layers under it decide and send, for `--debug`; never a secret.
    public let trace: DebugTrace
    /// The kernel's release string (WSL's says "microsoft"), read by the caller only when asked: where a browser
    /// is (`browserHost`) is wanted only to word a sign-in, never on the way to a token.
    private let kernelRelease: @Sendable () -> String?

    /// - Parameter configPath: nil for `$AUTHVAULT_CONFIG`, else the XDG default.
    public init(
        environment: EnvironmentVariables, configPath: String? = nil, prompter: any SecretPrompter = NoPrompter(),
        userAgent: String = "authvault", notice: @escaping @Sendable (ApplicationNotice) -> Void = { _ in },
        now: (@Sendable () -> Double)? = nil, trace: DebugTrace = .off,
        kernelRelease: @escaping @Sendable () -> String? = { nil }
    ) {
        self.environment = environment
        self.configPath = Self.configPath(given: configPath, environment: environment)
        self.prompter = prompter
        self.userAgent = userAgent
        self.notice = notice
        self.now = now ?? { Date().timeIntervalSince1970 }
        givenClock = now
        self.trace = trace
        self.kernelRelease = kernelRelease
    }

    /// Where a browser for a sign-in here is, by this application's environment (`BrowserHost.detect`).
    public var browserHost: BrowserHost { browserHostSource.host }

    var browserHostSource: BrowserHost.Source {
        BrowserHost.Source(environment: environment, kernelRelease: kernelRelease)
    }

    /// A profile's view of its identity provider's clock. On the system clock it is tied to the boot clock too, so
    /// an offset learned while the wall clock was wrong follows the clock's correction.
    func serverClock() -> ServerClock {
        givenClock.map { ServerClock(local: $0) } ?? ServerClock()
    }

    public var configStore: ConfigStore { ConfigStore(path: configPath) }

    /// Where vault files, lock files and the backend choices live: `$XDG_DATA_HOME/authvault`.
    public var dataDirectory: String { ConfigLocation.dataDirectory(environment: environment) }

    /// The profile named by `$AUTHVAULT_PROFILE`, else the one chosen with `profiles use`, else "default".
    public var defaultProfileName: String {
        Self.profileName(given: nil, environment: environment, configPath: configPath).name
    }

    /// The configuration file: the path given, else `$AUTHVAULT_CONFIG`, else the XDG default. The one rule, for the
    /// application and for a caller that lets its user name the file.
    public static func configPath(given: String?, environment: EnvironmentVariables) -> String {
        given ?? environment.nonEmpty("AUTHVAULT_CONFIG") ?? ConfigLocation.defaultPath(environment: environment)
    }

    /// The profile a use is about: the name given, else `$AUTHVAULT_PROFILE`, else the one chosen with `profiles use`
    /// in the file at `configPath`, else "default". `isExplicit`: named (given or by the environment), not defaulted.
    public static func profileName(given: String?, environment: EnvironmentVariables, configPath: String) -> (
        name: String, isExplicit: Bool
    ) {
        if let named = given ?? environment.nonEmpty("AUTHVAULT_PROFILE") { return (named, true) }
        return (ConfigStore(path: configPath).currentProfile() ?? "default", false)
    }

    /// The same application where nobody may be asked anything.
    public func withoutPrompts() -> Application {
        var copy = self
        copy.prompter = NoPrompter()
        return copy
    }

    /// The vault backends as this configuration and environment build them.
    func vaults(for configuration: ConfigFile) -> VaultFactory {
        VaultFactory(application: self, configuration: configuration)
    }
}
