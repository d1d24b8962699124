import AuthVaultApp

/// The mapping from the application's reasons to messages, remedies and exit statuses, in one place so every
/// command agrees. `profile` is the one the reason is about: the remedies name it (see `Remedy`).
enum CLIErrors {
    /// The reason's message and status; the library's error underneath goes along by name, for `--debug`.
    static func from(_ error: ApplicationError, profile: String) -> CLIError {
        var worded = worded(error, profile: profile)
        worded.underlying = error.cause?.name
        return worded
    }

    private static func worded(_ error: ApplicationError, profile: String) -> CLIError {
        switch error {
        case .configuration(let configError): return from(configError)
        case .backendRecord: return CLIError(error.description, status: .failure)
        case .signInRequired(let need, _):
            // Which profile, and the exact command that signs it in by its flow (for a tool's log too).
            return CLIError(Remedy.message(error.description, Remedy.signIn(need)), status: .signInRequired)
        case .vaultLocked(let cause, let step): return worded(cause, step, profile: profile, status: .vaultLocked)
        case .network(let cause, let step): return worded(cause, step, profile: profile, status: .networkUnavailable)
        case .failed(let cause, let step): return worded(cause, step, profile: profile, status: .failure)
        case .invalidRequest(let cause, let step): return worded(cause, step, profile: profile, status: .usage)
        case .cancelled: return CLIError(error.description, status: .cancelled)
        case .answer: return CLIError(error.description, status: .usage)
        case .signIn(let reason): return ChallengeAnswers.error(reason, profile: profile)
        case .notARememberedDevice(let profile):
            return CLIError(
                "This machine is no remembered device of profile '\(profile)': name the device to forget "
                    + "(see \(Remedy.command("devices list", profile: profile))).", status: .usage)
        case .copyDiffers: return CLIError(error.description, status: .failure)
        case .globalSignOutWithoutUserPool(let profile):
            return CLIError(
                "--global signs out of a Cognito user pool (GlobalSignOut), and profile '\(profile)' signs in at another "
                    + "OpenID provider: run \(Remedy.command("logout", profile: profile, "--browser")) to end its session there. "
                    + "Nothing was changed.", status: .usage)
        case .noLogoutPage(let reason):
            return CLIError("Cannot sign out in the browser: \(reason). Nothing was changed.", status: .usage)
        case .agentRefused(let refusal):
            return CLIError(error.description, status: refusal.vaultStaysLocked ? .vaultLocked : .failure)
        case .agentStaysLocked(let refusal):
            return CLIError(
                Remedy.message(error.description, Remedy.agentStaysLocked),
                status: refusal.vaultStaysLocked ? .vaultLocked : .failure)
        case .invalidVariable: return CLIError(error.description, status: .usage)
        case .discovery(_, let reason):
            // A document naming a wrong endpoint is the provider's to fix, not this profile's settings.
            let step = reason.nextStep == .setBrowserSignIn ? nil : reason.nextStep
            return CLIError(
                Remedy.message(error.description, step.map { Remedy.of($0, profile: profile) }),
                status: reason.isNetwork ? .networkUnavailable : .failure)
        case .apiRequest(let reason):
            return CLIError(error.description, status: reason.isNetwork ? .networkUnavailable : .failure)
        case .memoryVaultOutsideProcess:
            return CLIError(error.description + " Use --vault file or secret-service.", status: .usage)
        case .machineHasNoUser(let profile):
            return CLIError(
                Remedy.message(
                    error.description, "\(Remedy.command("whoami", profile: profile)) shows its app client and token."),
                status: .usage)
        case .ambiguousHelperTarget:
            return CLIError(Remedy.message(error.description, "Name one with --profile."), status: .usage)
        case .signedInForGuest(let profile):
            return CLIError(
                Remedy.message(error.description, Remedy.guestWhileSignedIn(profile: profile)), status: .usage)
        case .agentUnreachable(let path, _):
            return CLIError(Remedy.message(error.description, Remedy.reachAgent(at: path)), status: .failure)
        case .agent(let need, let failure):
            switch failure.code {
            case .signInRequired:
                return CLIError(Remedy.message(failure.message, Remedy.signIn(need)), status: .signInRequired)
            case .vaultLocked:
                return CLIError(Remedy.message(failure.message, Remedy.unlockVault), status: .vaultLocked)
            case .network: return CLIError(failure.message, status: .networkUnavailable)
            case .unknownProfile, .badRequest, .internal: return CLIError(failure.message, status: .failure)
            }
        }
    }

    /// A configuration that is wrong: a value given is a usage error, the rest a failure.
    static func from(_ error: ConfigError) -> CLIError {
        let status: ExitStatus =
            switch error {
            case .invalidValue, .incomplete: .usage
            default: .failure
            }
        return CLIError(Remedy.message(error.description, Remedy.of(error)), status: status)
    }

    /// A reason from below the application: its words, the next step in this command line's words, its status.
    private static func worded(_ cause: Cause, _ step: NextStep?, profile: String, status: ExitStatus) -> CLIError {
        CLIError(Remedy.message(cause.description, step.map { Remedy.of($0, profile: profile) }), status: status)
    }
}

extension ApplicationError {
    /// Whether trying again later may help: the provider could not be reached, or asked for it.
    var isNetwork: Bool {
        if case .network = self { true } else { false }
    }
}

/// Runs a use of the application from a command, about `profile`: its reason becomes the command's message (the
/// remedy naming that profile) and exit status.
func application<T>(for profile: String, _ use: () throws(ApplicationError) -> T) throws(CLIError) -> T {
    do { return try use() } catch { throw CLIErrors.from(error, profile: profile) }
}

/// Runs an asynchronous use of the application from a command, on the caller's executor: the use too (a plain
/// async closure would hop to the global executor and start its thread pool on every token a tool asks for).
nonisolated(nonsending) func application<T>(
    for profile: String, _ use: nonisolated(nonsending) () async throws(ApplicationError) -> T
) async throws(CLIError) -> T {
    do { return try await use() } catch { throw CLIErrors.from(error, profile: profile) }
}
