import AuthVaultApp
import FoundationEssentials
import TokenVault

/// `authvault vault ...`: where credentials live, and moving, locking and re-keying them.
enum VaultCommands {
    static let group = CommandNode.group(
        name: "vault",
        abstract: "Inspect and manage where tokens are kept.",
        children: [
            .command(VaultStatusCommand.self),
            .command(VaultMigrateCommand.self),
            .command(VaultLockCommand.self),
            .command(VaultUnlockCommand.self),
            .command(VaultChangePassphraseCommand.self),
        ]
    )

    /// The configuration, or the command's error.
    static func configuration(_ context: CommandContext) throws(CLIError) -> ConfigFile {
        do { return try context.configStore.load() } catch { throw CLIErrors.from(error) }
    }

    static func status(of error: VaultError) -> ExitStatus {
        switch error {
        case .locked, .passphraseRequired, .lockedUntilUnlocked, .wrongPassphrase: return .vaultLocked
        default: return .failure
        }
    }

    static func cliError(_ error: VaultError) -> CLIError {
        CLIError(Remedy.message(error.description, Remedy.of(error)), status: status(of: error))
    }
}

/// `authvault vault status`: the backend of each profile, whether it is locked, where the data is, the KDF.
struct VaultStatusCommand: CLICommand {
    static let json = OptionSpec.flag("json", help: "Print the status as JSON.")
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show which backend holds each profile, and whether it is locked.",
        discussion: "Reads no secret and asks for no passphrase. With --profile, only that profile.",
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    private struct Report: Encodable {
        struct Backend: Encodable {
            let backend: String
            let state: String
            let reason: String?
            let location: String
            let details: [String: String]
        }
        struct Profile: Encodable {
            let name: String
            let configured: String
            let backend: String?
            let stored: Bool?
        }
        let backends: [Backend]
        let profiles: [Profile]
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let configuration = try VaultCommands.configuration(context)
        let factory = context.application.vaults(for: configuration)
        let (fileVault, secretService) = try application { () throws(ApplicationError) in
            (try factory.fileVault(), try factory.secretServiceVault())
        }
        let statuses = [await secretService.status(), await fileVault.status()]
        let storedInSecretService: Set<String>
        if statuses[0].state == .available {
            storedInSecretService = Set((try? await secretService.profiles()) ?? [])
        } else {
            storedInSecretService = []
        }

        let names = context.profileIsExplicit ? [context.profileName] : configuration.profiles.keys.sorted()
        var profiles: [Report.Profile] = []
        for name in names {
            let backend = try application { () throws(ApplicationError) in try factory.knownBackend(for: name) }
            let stored: Bool?
            switch backend {
            case .file: stored = FileManager.default.fileExists(atPath: fileVault.recordPath(profile: name))
            case .secretService: stored = statuses[0].state == .available ? storedInSecretService.contains(name) : nil
            default: stored = nil
            }
            profiles.append(Report.Profile(name: name, configured: (configuration.profiles[name]?.vault ?? .auto).rawValue,
                                           backend: backend?.rawValue, stored: stored))
        }
        let report = Report(
            backends: statuses.map { status in
                let (state, reason) = Self.words(status.state)
                return Report.Backend(backend: status.backend.rawValue, state: state, reason: reason,
                                      location: status.location, details: status.details)
            },
            profiles: profiles)
        if asJSON {
            try JSONOutput.write(report, to: context.standardOutput)
            return
        }
        var lines: [String] = []
        for backend in report.backends {
            lines.append("\(backend.backend): \(backend.state)\(backend.reason.map { " (\($0))" } ?? "") — \(backend.location)")
            for (key, value) in backend.details.sorted(by: { $0.key < $1.key }) { lines.append("    \(key): \(value)") }
        }
        var rows = [["PROFILE", "CONFIGURED", "BACKEND", "STORED"]]
        for profile in report.profiles {
            rows.append([profile.name, profile.configured, profile.backend ?? "(not chosen yet)",
                         profile.stored.map { $0 ? "yes" : "no" } ?? "unknown"])
        }
        context.standardOutput.write(lines.joined(separator: "\n") + "\n\n" + TextTable.render(rows))
    }

    static func words(_ state: VaultStatus.State) -> (String, String?) {
        switch state {
        case .available: return ("available", nil)
        case .locked: return ("locked", nil)
        case .unavailable(let reason): return ("unavailable", reason)
        case .timedOut: return ("timed out", nil)
        }
    }
}

/// `authvault vault migrate`: copies, reads back and verifies, switches the profile over, then deletes the source.
struct VaultMigrateCommand: CLICommand {
    static let destination = TypedOption<VaultBackendKind?>.optional(
        "to", placeholder: "file|secret-service", help: "The backend to move to.", expected: "file or secret-service"
    ) { VaultBackendKind(rawValue: $0).flatMap { $0 == .memory ? nil : $0 } }
    static let all = OptionSpec.flag("all", help: "Every configured profile (default: the current profile).")
    static let spec = CommandSpec(
        name: "migrate",
        abstract: "Move credentials to another backend.",
        discussion: """
        Each credential is written to the new backend, read back and compared, the profile is switched to the new
        backend, and only then is it deleted from the old one: an interruption leaves it readable in one of the two.
        """,
        options: [destination.spec, all])

    let target: VaultBackendKind
    let everyProfile: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        guard let kind = try arguments.value(Self.destination) else { throw UsageError("Give --to file or --to secret-service.") }
        target = kind
        everyProfile = arguments.flag(Self.all)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let configuration = try VaultCommands.configuration(context)
        let factory = context.application.vaults(for: configuration)
        let names = everyProfile ? configuration.profiles.keys.sorted() : [context.profileName]
        guard everyProfile || configuration.profiles[context.profileName] != nil else {
            throw CLIErrors.from(ConfigError.noSuchProfile(name: context.profileName, path: context.configPath,
                                                           known: configuration.profiles.keys.sorted()))
        }
        let destination = try application { () throws(ApplicationError) in try factory.backend(target) }
        for name in names {
            try await migrate(name, to: destination, factory: factory, context: context)
        }
    }

    private func migrate(_ name: String, to destination: any VaultBackend, factory: VaultFactory,
                         context: CommandContext) async throws(CLIError) {
        let source = try application { () throws(ApplicationError) in try factory.knownBackend(for: name) }
        do {
            try await factory.lock(for: name).withLock { () async throws(CLIError) in
                if let source, source != target {
                    let origin = try application { () throws(ApplicationError) in try factory.backend(source) }
                    if let record = try await Self.vault({ () async throws(VaultError) in try await origin.load(profile: name) }) {
                        try await Self.vault { () async throws(VaultError) in try await destination.save(record) }
                        let copy = try await Self.vault { () async throws(VaultError) in try await destination.load(profile: name) }
                        guard copy == record else {
                            throw CLIError("The copy of profile '\(name)' in \(target.rawValue) does not read back the same; "
                                + "it stays in \(source.rawValue).")
                        }
                        try switchProfile(name, to: target, factory: factory, context: context)
                        try await Self.vault { () async throws(VaultError) in try await origin.delete(profile: name) }
                        context.standardError.line("Moved profile '\(name)' from \(source.rawValue) to \(target.rawValue).")
                        return
                    }
                }
                try switchProfile(name, to: target, factory: factory, context: context)
                context.standardError.line("Profile '\(name)' now uses \(target.rawValue)\(source == target ? " (it already did)" : "").")
            }
        } catch {
            switch error {
            case .lock(let error): throw VaultCommands.cliError(error)
            case .body(let error): throw error
            }
        }
    }

    /// Points the profile at the new backend: its configuration names it explicitly from now on.
    private func switchProfile(_ name: String, to kind: VaultBackendKind, factory: VaultFactory,
                               context: CommandContext) throws(CLIError) {
        let choice: VaultChoice = kind == .file ? .file : .secretService
        do {
            try context.configStore.update { (file: inout ConfigFile) throws(ConfigError) in
                file.profiles[name]?.vault = choice
            }
        } catch {
            throw CLIErrors.from(error)
        }
        try application { () throws(ApplicationError) in try factory.registry.record(kind, for: name) }
    }

    private static func vault<T>(_ body: () async throws(VaultError) -> T) async throws(CLIError) -> T {
        do { return try await body() } catch { throw VaultCommands.cliError(error) }
    }
}

/// `authvault vault change-passphrase [--rekey]`: rewraps the data key, or replaces it and re-encrypts every record.
struct VaultChangePassphraseCommand: CLICommand {
    static let rekey = OptionSpec.flag(
        "rekey", help: "Also replace the data key and re-encrypt every record: an old copy of vault.key with the old passphrase opens nothing written from now on.")
    static let spec = CommandSpec(
        name: "change-passphrase",
        abstract: "Change the encrypted file vault's passphrase (and, with --rekey, its data key).",
        discussion: """
        The current passphrase comes from $AUTHVAULT_VAULT_PASSPHRASE(_FILE) or a prompt; the new one from
        $AUTHVAULT_NEW_VAULT_PASSPHRASE(_FILE) or a prompt (asked twice). Without --rekey only vault.key changes:
        the data key stays, so a copy of the old vault.key still opens the records with the old passphrase. With
        --rekey every record is rewritten under a new data key, and a running agent reads them again.
        """,
        options: [rekey])

    let replacesKey: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        replacesKey = arguments.flag(Self.rekey)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let factory = context.application.vaults(for: try VaultCommands.configuration(context))
        let newSource = factory.passphraseSource(variable: "AUTHVAULT_NEW_VAULT_PASSPHRASE")
        let vault = try application { () throws(ApplicationError) in try factory.fileVault() }
        do throws(VaultError) {
            let new = try await newSource.passphrase(for: .create)
            try await vault.changePassphrase(new: new, rekey: replacesKey)
        } catch {
            throw VaultCommands.cliError(error)
        }
        context.standardError.line(replacesKey ? "Changed the vault passphrase and the data key; every record is re-encrypted."
                                               : "Changed the vault passphrase.")
    }
}
