import AuthCrypto
import DebugTrace
import SecureFiles
import TokenVault

/// Builds the vault backends from the environment and the configuration, and decides which one holds a profile.
struct VaultFactory: Sendable {
    let application: Application
    let profiles: [String: ProfileSettings]

    init(application: Application, configuration: ConfigFile) {
        self.application = application
        profiles = configuration.profiles
    }

    private var dataDirectory: String { application.dataDirectory }

    var registry: BackendRegistry { BackendRegistry(dataDirectory: dataDirectory) }

    /// Beside the file vault's records, for both backends: the agent watches them (see `ChangeStamps`).
    var changeStamps: ChangeStamps { ChangeStamps(dataDirectory: dataDirectory) }

    func lock(for profile: String) -> ProfileLock {
        Self.lock(for: profile, in: dataDirectory, trace: application.trace)
    }

    /// A profile's lock file, and its note of the last failed refresh, under `dataDirectory/locks`.
    static func lock(for profile: String, in dataDirectory: String, trace: DebugTrace) -> ProfileLock {
        ProfileLock(directory: FilePath.join(dataDirectory, "locks"), profile: profile, trace: trace)
    }

    // MARK: Backends

    func fileVault() throws(ApplicationError) -> EncryptedFileVault {
        EncryptedFileVault(
            directory: dataDirectory, passphrase: passphraseSource(), keyCache: try keyCache(), bindings: bindings)
    }

    /// Each profile's pool and client, which both backends match a record against.
    private var bindings: [String: ProfileBinding] { profiles.compactMapValues(\.binding) }

    func secretServiceVault() throws(ApplicationError) -> SecretServiceVault {
        SecretServiceVault(
            changeStamps: changeStamps, bindings: bindings, timeout: try secretServiceTimeout(),
            allowPrompt: application.prompter.isInteractive, trace: application.trace)
    }

    func backend(_ kind: VaultBackendKind) throws(ApplicationError) -> any VaultBackend {
        switch kind {
        case .file: return try fileVault()
        case .secretService: return try secretServiceVault()
        case .memory: throw .memoryVaultOutsideProcess
        }
    }

    /// The backend that holds `profile`: the configured one, or for `auto` the one recorded for it, or — the first
    /// time — the Secret Service when it answers unlocked within the bound, else the encrypted file. A first
    /// choice of the file is said as a notice, once, and recorded: never a silent change of backend.
    nonisolated(nonsending) func selectBackend(for profile: String) async throws(ApplicationError) -> (
        any VaultBackend, VaultBackendKind
    ) {
        switch profiles[profile]?.vault ?? .auto {
        case .file: return (try fileVault(), .file)
        case .secretService: return (try secretServiceVault(), .secretService)
        case .auto: break
        }
        if let recorded = try registry.backend(of: profile) {
            return (try backend(recorded), recorded)
        }
        let secretService = try secretServiceVault()
        let status = await secretService.status()
        let chosen: VaultBackendKind
        if status.state == .available {
            chosen = .secretService
        } else {
            chosen = .file
            let fileVault = try fileVault()
            application.notice(
                .fileVaultChosen(profile: profile, directory: fileVault.directory, reason: Self.describe(status.state)))
        }
        try registry.record(chosen, for: profile)
        return (try backend(chosen), chosen)
    }

    /// The backend recorded or configured for a profile, without probing or recording anything (for `status`).
    func knownBackend(for profile: String) throws(ApplicationError) -> VaultBackendKind? {
        switch profiles[profile]?.vault ?? .auto {
        case .file: return .file
        case .secretService: return .secretService
        case .auto: return try registry.backend(of: profile)
        }
    }

    static func describe(_ state: VaultStatus.State) -> String {
        switch state {
        case .available: return "available"
        case .locked: return "the collection is locked"
        case .unavailable(let reason): return reason
        case .timedOut: return "it did not answer in time"
        }
    }

    // MARK: Passphrase and settings

    /// `AUTHVAULT_VAULT_PASSPHRASE`, else the file named by `AUTHVAULT_VAULT_PASSPHRASE_FILE`, else a no-echo
    /// prompt on the terminal, even while standard input is a pipe (asked twice when the vault is created, and
    /// again after a wrong one, up to three tries). Never a command-line argument.
    func passphraseSource(
        variable: String = "AUTHVAULT_VAULT_PASSPHRASE", prompt: String = "Vault passphrase"
    ) -> PassphraseSource {
        if let value = application.environment[variable], !value.isEmpty {
            return .fixed(SecretBytes(utf8: value))
        }
        if let path = application.environment[variable + "_FILE"], !path.isEmpty {
            return PassphraseSource { _ throws(VaultError) in
                try Self.readPassphraseFile(path, variable: variable + "_FILE")
            }
        }
        let prompter = application.prompter
        return PassphraseSource(tries: 3) { [self] purpose throws(VaultError) in
            // Looked for only when a passphrase is needed: a warm command never opens the terminal. Said alike by a
            // command without a terminal and by the agent, which asks nobody.
            guard prompter.canAskForSecret else {
                throw .passphraseRequired(
                    "there is no terminal to ask for it on; put it in a file (mode 0600) named by "
                        + "\(variable)_FILE, or in \(variable).")
            }
            let asked: String =
                switch purpose {
                case .create: "\(newPassphraseIntroduction())\nNew \(prompt.lowercased()): "
                case .unlock: "\(prompt): "
                case .retryUnlock: "Wrong \(prompt.lowercased()), try again.\n\(prompt): "
                }
            guard let first = prompter.readSecret(prompt: asked) else {
                throw .passphraseRequired("no passphrase was entered.")
            }
            guard purpose == .create else { return first }
            guard prompter.readSecret(prompt: "Repeat the \(prompt.lowercased()): ") == first else {
                throw .passphraseRequired("the two passphrases differ; nothing was created.")
            }
            return first
        }
    }

    /// Said before a new passphrase is asked: what it protects, and how long the key it opens is remembered.
    private func newPassphraseIntroduction() -> String {
        let remembered: String =
            switch try? keyCache() {
            case .userKeyring(let timeout)?:
                "its key is remembered for \(TimeText.span(Double(timeout.components.seconds))) in your user keyring"
            default: "its key is not remembered: every command asks for it"
            }
        return "A new vault passphrase protects the tokens in \(dataDirectory); \(remembered)."
    }

    /// The file's first line. It must be private to this user, like every secret file.
    private static func readPassphraseFile(_ path: String, variable: String) throws(VaultError) -> SecretBytes {
        let bytes: [UInt8]?
        do {
            bytes = try SecureFile.read(path)
        } catch {
            throw .passphraseRequired("\(variable) names \(path), which cannot be used: \(error)")
        }
        guard var bytes else { throw .passphraseRequired("\(variable) names \(path), which does not exist.") }
        defer { bytes.wipe() }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return SecretBytes(line)
    }

    private func keyCache() throws(ApplicationError) -> DataKeyCache {
        // Up to a year: the kernel keeps a key's time-out in 32 bits of seconds.
        let seconds = try seconds(from: "AUTHVAULT_KEY_CACHE_TIMEOUT", default: 3600, maximum: 365 * 86_400)
        return seconds == 0 ? .disabled : .userKeyring(timeout: .milliseconds(Int64(seconds * 1000)))
    }

    private func secretServiceTimeout() throws(ApplicationError) -> Duration {
        // Up to ten minutes: long enough for any prompt, and a bound that every later conversion survives.
        .milliseconds(Int64(try seconds(from: "AUTHVAULT_SECRET_SERVICE_TIMEOUT", default: 3, maximum: 600) * 1000))
    }

    /// A number of seconds from 0 to `maximum`; anything else (1e309, nan, -1, words) is refused, never converted.
    private func seconds(from variable: String, default value: Double, maximum: Double) throws(ApplicationError)
        -> Double
    {
        guard let text = application.environment[variable], !text.isEmpty else { return value }
        guard let seconds = Double(text), (0...maximum).contains(seconds) else {
            throw .invalidVariable(
                name: variable, value: text, expected: "a number of seconds from 0 to \(Int(maximum))")
        }
        return seconds
    }
}
