import AuthVaultApp

/// `authvault reset`: leaves AuthVault cleanly as this user, before `apt remove` (which never touches a home
/// directory). The application does the work (`Application.reset`); this asks first and says what happened.
struct ResetCommand: CLICommand {
    static let yes = OptionSpec.flag("yes", short: "y", help: "Reset without asking.")
    static let dryRun = OptionSpec.flag(
        "dry-run", help: "Name each profile, setup and file it would act on, and change nothing.")
    static let name = "reset"
    static let spec = CommandSpec(
        name: name,
        abstract:
            "Sign out of every profile, undo every setup, stop the agent, lock the vault and remove AuthVault's files.",
        discussion: """
            Each profile is signed out (its refresh token revoked at the server); every 'setup' is undone as 'setup \
            --undo' would (the same trust rules; files put back as they were); each profile is removed as 'profiles \
            remove' removes it (the Secret Service's items too); the agent on the default socket is \
            stopped; the encrypted file vault is locked (its key leaves the kernel's user keyring); then the \
            configuration file and the data directory (vault files, records) are removed. A symbolic link there is \
            removed, never followed. A revocation that fails is reported and the local state goes anyway; a setup that \
            cannot be undone keeps the profiles, the configuration and the data for the next try. Asks first \
            on a terminal; without one, --yes is required. Run it before 'apt remove authvault', which leaves home \
            directories alone. An agent that systemd starts on its socket comes back on the next connection: \
            'systemctl --user disable --now authvault-agent.socket' first.
            """,
        options: [yes, dryRun])

    let confirmed: Bool
    let dry: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        confirmed = arguments.flag(Self.yes)
        dry = arguments.flag(Self.dryRun)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let application = context.application
        let executable = SetupCommands.executable()
        if !dry && !confirmed {
            guard context.isInteractive else {
                throw CLIError(
                    "Reset signs out of every profile and removes AuthVault's files: confirm with --yes (or see what it does with --dry-run).",
                    status: .usage)
            }
            describe(
                await application.reset(ResetRequest(executable: executable, dryRun: true)), planned: true,
                context: context)
            let answer = context.prompter.readLine(prompt: "Reset AuthVault for this user? [y/N] ") ?? ""
            guard ["y", "yes"].contains(answer.lowercased()) else {
                throw CLIError("Nothing was changed.", status: .failure)
            }
        }
        let report = await application.reset(ResetRequest(executable: executable, dryRun: dry))
        describe(report, planned: dry, context: context)
        if dry {
            context.standardOutput.line("Dry run: nothing was changed.")
            return
        }
        guard report.isComplete else {
            throw CLIError("Reset did not finish every step (above); run it again once the cause is fixed.")
        }
        let unrevoked = report.profiles.filter { if case .failed? = $0.revocation { true } else { false } }.map(
            \.profile)
        guard unrevoked.isEmpty else {
            throw CLIError(
                "AuthVault is reset for this user, but the refresh tokens of \(unrevoked.map { "'\($0)'" }.joined(separator: ", ")) "
                    + "were not revoked: they stay valid at the server until they expire.", status: .networkUnavailable)
        }
        context.standardOutput.line("AuthVault is reset for this user: 'apt remove authvault' removes the program.")
    }

    private func describe(_ report: ResetReport, planned: Bool, context: CommandContext) {
        let out = context.standardOutput
        for profile in report.profiles {
            if let failure = profile.failure {
                out.line(
                    "Profile '\(profile.profile)': not signed out here (\(CLIErrors.from(failure, profile: profile.profile).message)); its local state goes with the data directory."
                )
            } else if let revocation = profile.revocation {
                out.line("Signed out of profile '\(profile.profile)'" + Self.words(revocation) + ".")
            } else {
                out.line("Would sign out of profile '\(profile.profile)', revoking its refresh token.")
            }
        }
        if let failure = report.recordFailure { out.line("No setup undone: \(SetupCommands.remedy(failure).message)") }
        for undo in report.setups {
            let command = ShellWords.line(["setup"] + SetupCommands.words(undo.setup.request))
            if let failure = undo.failure {
                out.line(
                    "Not undone: '\(command)' of profile '\(undo.setup.profile)': \(SetupCommands.remedy(failure).message)"
                )
            } else if let plan = undo.plan {
                out.line(
                    "\(planned ? "Would undo" : "Undid") '\(command)' of profile '\(undo.setup.profile)' in \(plan.target)"
                        + (plan.changes.isEmpty && plan.notes.isEmpty ? "." : ":"))
                plan.changes.forEach { out.line("  \($0)") }
                plan.notes.forEach { out.line("  (\($0))") }
            }
        }
        for (profile, error) in report.profileRemovalFailures {
            out.line(
                "Profile '\(profile)': its vault items were not erased: \(CLIErrors.from(error, profile: profile).message)"
            )
        }
        switch report.agent {
        case .notRunning: break
        case .stopped: out.line(planned ? "Would stop the agent." : "Stopped the agent.")
        case .refused:
            out.line("The agent did not stop: stop it yourself (systemctl --user stop authvault-agent, or kill it).")
        }
        if !planned {
            out.line(
                report.vaultLockFailure.map {
                    "The vault was not locked: \(CLIErrors.from($0, profile: context.profileName).message)"
                }
                    ?? "Locked the vault: no key is left in the user keyring.")
        } else {
            out.line("Would lock the vault, leaving no key in the user keyring.")
        }
        report.removed.forEach { out.line("\(planned ? "Would remove" : "Removed") \($0)") }
        if report.keptForAnotherTry {
            out.line(
                "Kept the profiles, the configuration and the data: a setup was not undone (above), and its record is needed to undo it."
            )
        }
        report.notRemoved.forEach { out.line("Could not remove \($0)") }
    }

    /// What became of the profile's refresh token.
    private static func words(_ revocation: ResetReport.Revocation) -> String {
        switch revocation {
        case .revoked: ", refresh token revoked"
        case .nothingStored: " (no session was stored)"
        case .unavailable:
            "; its provider names no revocation endpoint, so the refresh token stays valid there until it expires"
        case .failed(let failures):
            ", but its refresh token was not revoked (\(failures.joined(separator: "; "))): it stays valid at the server until it expires"
        }
    }
}
