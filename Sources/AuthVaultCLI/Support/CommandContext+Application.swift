import AuthVaultApp
import DebugTrace

extension CommandContext {
    /// The application as this invocation sees it: its environment, configuration file and prompter, with notices
    /// on standard error.
    var application: Application {
        let standardError = standardError
        let trace = tracesDecisions ? DebugTrace { standardError.line("authvault debug: \($0)") } : .off
        return Application(
            environment: variables, configPath: configPath, prompter: prompter,
            userAgent: "authvault/\(AuthVault.version)",
            notice: { standardError.line(Remedy.message($0.description, Remedy.of($0))) },
            trace: trace, kernelRelease: BrowserHost.kernelRelease)
    }
}

extension ProfileSession {
    /// The current profile, or `name`, in command terms (see `Application.openProfile`).
    static func open(
        _ context: CommandContext, profile name: String? = nil, refreshesInBackground: Bool = false,
        devicePolicy: DevicePolicy? = nil
    ) async throws(CLIError) -> ProfileSession {
        try await application(for: name ?? context.profileName) { () async throws(ApplicationError) in
            try await context.application.openProfile(
                named: name ?? context.profileName, refreshesInBackground: refreshesInBackground,
                devicePolicy: devicePolicy)
        }
    }
}
