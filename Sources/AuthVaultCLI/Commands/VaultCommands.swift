import AuthVaultApp

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
}

/// `authvault vault status`: the backend of each profile, whether it is locked, where the data is, the KDF.
struct VaultStatusCommand: CLICommand {
    static let json = JSONOutput.option("the backends and the profiles in them", schema: "vault-status")
    static let name = "status"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show which backend holds each profile, and whether it is locked.",
        discussion: "Reads no secret and asks for no passphrase. With --profile, only that profile.",
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let report = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.vaultOverview(profile: context.profileIsExplicit ? context.profileName : nil)
        }
        if asJSON {
            try JSONOutput.write(report, to: context.standardOutput)
            return
        }
        var lines: [String] = []
        for backend in report.backends {
            lines.append(
                "\(backend.backend): \(backend.state)\(backend.reason.map { " (\($0))" } ?? "") — \(backend.location)")
            for (key, value) in backend.details.sorted(by: { $0.key < $1.key }) { lines.append("    \(key): \(value)") }
        }
        var rows = [["PROFILE", "CONFIGURED", "BACKEND", "STORED"]]
        for profile in report.profiles {
            rows.append([
                profile.name, profile.configured, profile.backend ?? "(not chosen yet)",
                profile.stored.map { $0 ? "yes" : "no" } ?? "unknown",
            ])
        }
        context.standardOutput.write(lines.joined(separator: "\n") + "\n\n" + TextTable.render(rows))
    }
}

/// `authvault vault migrate`: copies, reads back and verifies, switches the profile over, then deletes the source.
struct VaultMigrateCommand: CLICommand {
    static let destination = TypedOption<VaultBackendKind?>.optional(
        "to", placeholder: "file|secret-service", help: "The backend to move to.", expected: "file or secret-service"
    ) { VaultBackendKind(rawValue: $0).flatMap { $0 == .memory ? nil : $0 } }
    static let all = OptionSpec.flag("all", help: "Every configured profile (default: the current profile).")
    static let name = "migrate"
    static let spec = CommandSpec(
        name: name,
        abstract: "Move credentials to another backend.",
        discussion: """
            Each credential is written to the new backend, read back and compared, the profile is switched to the new
            backend, and only then is it deleted from the old one: an interruption leaves it readable in one of the two.
            """,
        options: [destination.spec, all])

    let target: VaultBackendKind
    let everyProfile: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        guard let kind = try arguments.value(Self.destination) else {
            throw UsageError("Give --to file or --to secret-service.")
        }
        target = kind
        everyProfile = arguments.flag(Self.all)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.migrateVault(to: target, profile: everyProfile ? nil : context.profileName) {
                move in
                switch move {
                case .moved(let name, let source, let target):
                    context.standardError.line("Moved profile '\(name)' from \(source.rawValue) to \(target.rawValue).")
                case .switched(let name, let target, let already):
                    context.standardError.line(
                        "Profile '\(name)' now uses \(target.rawValue)\(already ? " (it already did)" : "").")
                }
            }
        }
    }
}

/// `authvault vault change-passphrase [--rekey]`: rewraps the data key, or replaces it and re-encrypts every record.
struct VaultChangePassphraseCommand: CLICommand {
    static let rekey = OptionSpec.flag(
        "rekey",
        help:
            "Also replace the data key and re-encrypt every record: an old copy of vault.key with the old passphrase opens nothing written from now on."
    )
    static let name = "change-passphrase"
    static let spec = CommandSpec(
        name: name,
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
        try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.changeVaultPassphrase(rekey: replacesKey)
        }
        context.standardError.line(
            replacesKey
                ? "Changed the vault passphrase and the data key; every record is re-encrypted."
                : "Changed the vault passphrase.")
    }
}
