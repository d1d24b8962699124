import AuthCrypto
import SecureFiles
import Synchronization
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Credential records in encrypted files, for machines without a Secret Service.
///
/// In `directory` (mode 0700; the application passes `$XDG_DATA_HOME/authvault/`): `vault.key` holds a random data key
/// wrapped under a scrypt-derived key (see `VaultKeyFile`), and each profile has `<profile>.record`, AES-256-GCM
/// under the data key (see `VaultRecordFile`). Every write is an atomic replace. Damaged, foreign, newer or
/// exposed files are refused with distinct errors, and no error path modifies or deletes anything.
///
/// The unwrapped data key stays in this actor until `lock()` and, when `keyCache` allows, in the kernel's user
/// keyring, where every process of this uid (and no other uid) finds it, so a warm read runs no KDF. A key from either place is used only if it matches the key
/// file's key check. Records are read and written under the key-file lock held shared, and re-keyed under it held
/// exclusively, so no record is ever read or sealed with a key that `vault.key` no longer wraps. Every save and
/// delete bumps the profile's change stamp (`changeStamps`), which tells long-lived processes to read the record again.
public actor EncryptedFileVault: VaultRecordAtHand {
    /// scrypt N = 2^15, r = 8, p = 1 for new and rewrapped key files.
    public static let defaultKDFParameters = ScryptParameters.interactive
    public static let keyFileName = "vault.key"
    public static let recordSuffix = ".record"

    /// How many times this process has run the passphrase KDF (diagnostics, benchmarks and tests).
    public static var keyDerivationCount: Int { PassphraseKeyDerivation.runs.load(ordering: .relaxed) }

    public nonisolated let kind = VaultBackendKind.file
    public nonisolated let directory: String
    public nonisolated let keyFilePath: String
    /// In `directory/revisions/`, where the application also keeps the Secret Service's (see `ChangeStamps`).
    public nonisolated let changeStamps: ChangeStamps
    /// Profile name to its pool and client: kept in the profile's record on save, and a record saved for another
    /// is not handed out (`load` answers nil, as for no record). A profile missing here matches any record.
    public nonisolated let bindings: [String: ProfileBinding]
    let passphraseSource: PassphraseSource
    let kdfParameters: ScryptParameters
    private let keyCache: DataKeyCache
    let keyring: KernelKeyringCache?
    private var dataKey: SecretBytes?
    /// Set by `lock()`: no key is taken from the keyring or derived from the passphrase until `unlock()`. Atomic, for
    /// `recordAtHand`, which reads it without waiting for the actor.
    private nonisolated let lockedHere = Atomic<Bool>(false)
    nonisolated var isLocked: Bool { lockedHere.load(ordering: .acquiring) }
    /// The record `load` or `save` handled last, per profile, for `recordLastRead`; only with a keyring to keep
    /// tokens in.
    var lastRead: [String: RecordAtHand] = [:]
    /// Why the keyring could not be used last time, for `status()`.
    private var keyringProblem: String?

    /// - Parameters:
    ///   - kdfParameters: used when creating the vault or changing the passphrase; reads use the file's own.
    ///   - keyCache: where the unwrapped data key is shared between processes.
    public init(
        directory: String,
        passphrase: PassphraseSource,
        kdfParameters: ScryptParameters = EncryptedFileVault.defaultKDFParameters,
        keyCache: DataKeyCache = .standard,
        bindings: [String: ProfileBinding] = [:]
    ) {
        self.directory = directory
        self.bindings = bindings
        keyFilePath = FilePath.join(directory, Self.keyFileName)
        changeStamps = ChangeStamps(dataDirectory: directory)
        passphraseSource = passphrase
        self.kdfParameters = kdfParameters
        self.keyCache = keyCache
        if case .userKeyring(let timeout) = keyCache {
            keyring = KernelKeyringCache(timeout: timeout)
        } else {
            keyring = nil
        }
    }

    public nonisolated func recordPath(profile: String) -> String {
        FilePath.join(directory, profile + Self.recordSuffix)
    }

    // MARK: VaultBackend

    public func load(profile: String) async throws(VaultError) -> CredentialRecord? {
        let path = try checkedRecordPath(profile)
        guard try directoryExists() else { return nil }
        var keyDescription = ""
        let read = try readWithKey(profile: profile) { keyFile in
            keyDescription = keyFile.cacheDescription
            return cachedKey(for: keyFile)
        }
        if case .read(let record, let tag)? = read {
            return remember(record, profile: profile, tag: tag, keyDescription: keyDescription)
        }
        return try await withDataKey(creatingVault: false) { key, keyFile throws(VaultError) in
            // Read again under the lock: a re-key may have rewritten it since.
            guard let bytes = try Self.read(path) else { return nil }
            let envelope = try VaultRecordFile.envelope(of: bytes, location: path)
            let record = try Self.open(envelope, profile: profile, using: key, location: path, bindings: bindings)
            return remember(record, profile: profile, tag: envelope.box.nonce, keyDescription: keyFile.cacheDescription)
        }
    }

    /// The record with the data key from the kernel keyring, when this process has not locked the vault: one read
    /// of `vault.key` and one of the record, on the calling thread. Nil when the key is not there, or when anything
    /// fails: the caller then takes the path that checks everything (`load`).
    ///
    /// Neither the key check nor `vault.key`'s checksum is computed here (each would be OpenSSL's first digest
    /// fetch): the record's AES-GCM tag, over its profile and format version, already refuses a key that is not
    /// the one it was sealed with, and the entry is this vault's by its name (this key file's salt). A wrong or
    /// stale key fails the tag, and `load` then drops it after its key check.
    public nonisolated func recordAtHand(profile: String) -> RecordAtHand? {
        guard let keyring, !isLocked, ProfileFileName.isValid(profile),
            (try? directoryExists()) == true
        else { return nil }
        var keyDescription = ""
        let read = try? readWithKey(profile: profile, verifyingKeyFile: false) { keyFile in
            keyDescription = keyFile.cacheDescription
            guard case .found(let key) = keyring.load(keyDescription), key.count == AES256GCM.keyByteCount
            else { return nil }
            return key
        }
        guard case .read(let record?, let tag)? = read else { return nil }
        return RecordAtHand(record: record, tag: tag, dataKeyDescription: keyDescription)
    }

    /// How a read with a key at hand ended.
    private enum KeyedRead {
        /// With the record file's tag (`VaultRecordFile.tag`).
        case read(CredentialRecord?, tag: [UInt8])
        /// The key is not at hand: it must be derived, or waited for.
        case keyNeeded
    }

    /// The record read once, and `vault.key` once, under the key-file lock held shared, with the key `key` finds for
    /// the key file; nil when a re-key holds the lock (the caller waits for it on its own way).
    private nonisolated func readWithKey(
        profile: String, verifyingKeyFile: Bool = true, _ key: (VaultKeyFile) -> SecretBytes?
    ) throws(VaultError) -> KeyedRead? {
        let path = recordPath(profile: profile)
        return try VaultKeyFileLock.withSharedLockIfFree(directory: directory) { () throws(VaultError) -> KeyedRead in
            guard let bytes = try Self.read(path) else { return .read(nil, tag: []) }
            let envelope = try VaultRecordFile.envelope(of: bytes, location: path)
            guard let keyFile = try readKeyFile(verifyingChecksum: verifyingKeyFile) else {
                throw .corrupted(location: keyFilePath, reason: "the key file is missing, so no record can be read")
            }
            guard let key = key(keyFile) else { return .keyNeeded }
            let record = try Self.open(envelope, profile: profile, using: key, location: path, bindings: bindings)
            return .read(record, tag: envelope.box.nonce)
        }
    }

    /// The record sealed in `envelope`; nil when it was saved for another pool or client than `bindings` say.
    private static func open(
        _ envelope: VaultRecordFile.Envelope, profile: String, using key: SecretBytes, location: String,
        bindings: [String: ProfileBinding]
    ) throws(VaultError) -> CredentialRecord? {
        var record = try VaultRecordFile.open(envelope, profile: profile, using: key, location: location)
        if let expected = bindings[profile], let bound = record.binding, bound != expected { return nil }
        // The vault's own bookkeeping, as the Secret Service's item attributes are: a record reads back as saved.
        record.binding = nil
        return record
    }

    public func save(_ record: CredentialRecord) async throws(VaultError) {
        var record = record
        record.binding = bindings[record.profile] ?? record.binding
        let path = try checkedRecordPath(record.profile)
        do {
            try PrivateDirectory.create(directory)
        } catch {
            throw Self.vaultError(error)
        }
        // An existing record that cannot be read safely (exposed, foreign) is not silently replaced.
        if let existing = try Self.read(path) { _ = try VaultRecordFile.envelope(of: existing, location: path) }
        try await withDataKey(creatingVault: true) { key, keyFile throws(VaultError) in
            let sealed = try VaultRecordFile.seal(record, using: key)
            // Two fsyncs: off the cooperative pool.
            try await DedicatedThread.run { () throws(VaultError) in try Self.write(sealed, to: path) }
            // As `load` would read it back.
            var saved = record
            saved.binding = nil
            _ = remember(
                saved, profile: saved.profile, tag: VaultRecordFile.tag(of: sealed) ?? [],
                keyDescription: keyFile.cacheDescription)
        }
        try changeStamps.bump(profile: record.profile)
        forgetFreshTokens(profile: record.profile)
    }

    public func delete(profile: String) async throws(VaultError) {
        let path = try checkedRecordPath(profile)
        guard try directoryExists() else { return }
        // Not while a re-key runs: it would write the record back.
        try await VaultKeyFileLock.withSharedLock(directory: directory) { () async throws(VaultError) in
            try await DedicatedThread.run { () throws(VaultError) in try Self.remove(path) }
        }
        try changeStamps.bump(profile: profile)
        lastRead[profile] = nil
        forgetFreshTokens(profile: profile)
    }

    public func profiles() async throws(VaultError) -> [String] {
        guard try directoryExists() else { return [] }
        return try Self.profiles(in: directory)
    }

    public func status() async -> VaultStatus {
        var details = ["keyFile": keyFilePath]
        let state: VaultStatus.State
        do {
            if try directoryExists(), let keyFile = try readKeyFile() {
                details["kdf"] = VaultKeyFile.kdfName
                details["logN"] = String(keyFile.parameters.logN)
                details["r"] = String(keyFile.parameters.r)
                details["p"] = String(keyFile.parameters.p)
                let unlocked = cachedKey(for: keyFile) != nil
                details["keyCached"] = unlocked ? "yes" : "no"
                if let keyring { details["keyCacheShared"] = Self.describe(keyring.sharing(keyFile.cacheDescription)) }
                state = unlocked ? .available : .locked
            } else {
                details["created"] = "no"
                state = .available
            }
        } catch {
            state = .unavailable(error.description)
        }
        details["keyCache"] = cacheDescription()
        return VaultStatus(backend: .file, state: state, location: directory, details: details)
    }

    // MARK: Passphrase and cache

    /// Forgets the data key, in this process and in the kernel keyring, and keeps this vault locked: until
    /// `unlock()`, reading or writing a record fails with `.passphraseRequired` instead of looking in the keyring or
    /// asking for the passphrase again (a long-lived process must not quietly undo `authvault vault lock`).
    public func lock() throws(VaultError) {
        dataKey = nil
        lastRead = [:]
        lockedHere.store(true, ordering: .releasing)
        forgetFreshTokens()
        guard try directoryExists(), let keyFile = try readKeyFile() else { return }
        uncache(keyFile)
    }

    /// Opens the vault after `lock()`: the data key from the keyring, else from the passphrase (one KDF run),
    /// cached as on any first use. The vault stays locked if that fails. A vault without a key file has nothing
    /// to unlock.
    public func unlock() async throws(VaultError) {
        guard try directoryExists(), let keyFile = try readKeyFile() else {
            lockedHere.store(false, ordering: .releasing)
            return
        }
        _ = try await key(for: keyFile, evenIfLocked: true)
        lockedHere.store(false, ordering: .releasing)
    }

    /// Whether the vault was created: its key file exists (a directory others can enter is refused).
    public func exists() throws(VaultError) -> Bool {
        guard try directoryExists() else { return false }
        return try readKeyFile() != nil
    }

    /// Runs `body` with the data key, holding the key-file lock shared so that no re-key runs meanwhile, and only
    /// once `vault.key` on disk (read again under the lock) still wraps that key.
    private func withDataKey<T>(
        creatingVault: Bool, _ body: (SecretBytes, VaultKeyFile) async throws(VaultError) -> T
    ) async throws(VaultError) -> T {
        for _ in 0..<3 {
            let key: SecretBytes
            if let keyFile = try readKeyFile() {
                key = try await self.key(for: keyFile)
            } else if creatingVault {
                key = try await createVault()
            } else {
                throw .corrupted(location: keyFilePath, reason: "the key file is missing, so no record can be read")
            }
            let outcome = try await VaultKeyFileLock.withSharedLock(directory: directory) {
                () async throws(VaultError) -> T? in
                guard let current = try readKeyFile(), current.matches(key) else { return nil }
                return try await body(key, current)
            }
            if let outcome { return outcome }
        }
        throw .io("\(keyFilePath) kept changing while it was being read (a re-key in another process?); try again")
    }

    /// The data key for `keyFile`: from memory, else the keyring, else the passphrase (one KDF run); while locked,
    /// from memory only.
    private func key(
        for keyFile: VaultKeyFile, passphrase given: SecretBytes? = nil, evenIfLocked: Bool = false
    ) async throws(VaultError) -> SecretBytes {
        if let key = cachedKey(for: keyFile, evenIfLocked: evenIfLocked) { return key }
        guard !isLocked || evenIfLocked else {
            throw .lockedUntilUnlocked
        }
        let location = keyFilePath
        var purpose = PassphraseSource.Purpose.unlock
        var tried = 0
        while true {
            let passphrase: SecretBytes
            if let given {
                passphrase = given
            } else {
                passphrase = try await passphraseSource.passphrase(for: purpose)
            }
            tried += 1
            do {
                let key = try await DedicatedThread.run { () throws(VaultError) in
                    try keyFile.unwrap(passphrase: passphrase, location: location)
                }
                cache(key, for: keyFile)
                return key
            } catch .wrongPassphrase where given == nil && tried < passphraseSource.tries {
                purpose = .retryUnlock
            }
        }
    }

    /// A key already at hand that matches `keyFile`; a stale one (the vault was re-keyed) is dropped.
    private func cachedKey(for keyFile: VaultKeyFile, evenIfLocked: Bool = false) -> SecretBytes? {
        if let dataKey {
            if keyFile.matches(dataKey) { return dataKey }
            self.dataKey = nil
        }
        guard let keyring, !isLocked || evenIfLocked else { return nil }
        switch keyring.load(keyFile.cacheDescription) {
        case .found(let key) where key.count == AES256GCM.keyByteCount && keyFile.matches(key):
            dataKey = key
            return key
        case .found:
            keyring.remove(keyFile.cacheDescription)
        case .missing:
            break
        case .unavailable(let problem):
            keyringProblem = problem
        }
        return nil
    }

    func cache(_ key: SecretBytes, for keyFile: VaultKeyFile) {
        dataKey = key
        keyringProblem = keyring?.store(key, description: keyFile.cacheDescription)
    }

    /// Drops `keyFile`'s key from the kernel keyring, under the name this version gives it and the earlier one.
    func uncache(_ keyFile: VaultKeyFile) {
        keyring?.remove(keyFile.cacheDescription)
        keyring?.remove(keyFile.earlierCacheDescription)
    }

    /// Makes `vault.key` with a new data key, under a lock so that two processes creating the vault at once end up
    /// with one key file. If another process won, its key file is unlocked with the passphrase given here.
    private func createVault() async throws(VaultError) -> SecretBytes {
        let passphrase = try await passphraseSource.passphrase(for: .create)
        let location = keyFilePath
        let parameters = kdfParameters
        let outcome = try await DedicatedThread.run { () throws(VaultError) -> (VaultKeyFile, SecretBytes?) in
            try VaultKeyFileLock.withLock(directory: FilePath.parent(of: location)) { () throws(VaultError) in
                if let existing = try Self.read(location) {
                    return (try VaultKeyFile(parsing: existing, location: location), nil)
                }
                let key = SecureRandom.secretBytes(count: AES256GCM.keyByteCount)
                let keyFile = try VaultKeyFile(wrapping: key, passphrase: passphrase, parameters: parameters)
                try Self.write(keyFile.encoded, to: location)
                return (keyFile, key)
            }
        }
        guard let key = outcome.1 else { return try await self.key(for: outcome.0, passphrase: passphrase) }
        cache(key, for: outcome.0)
        return key
    }

    private func cacheDescription() -> String {
        switch keyCache {
        case .disabled:
            return "disabled"
        case .userKeyring(let timeout):
            if let problem = keyringProblem ?? keyring?.availability() { return "user keyring unavailable: \(problem)" }
            return "user keyring of uid \(getuid()), expires after \(Int(timeout.inSeconds)) s"
        }
    }

    /// Whether the cached key is found from the user keyring (so by every process of this uid, in any session) and
    /// readable by this uid only.
    private static func describe(_ sharing: KernelKeyringCache.Sharing) -> String {
        switch sharing {
        case .sharedWithThisUserOnly:
            return "yes: every process of uid \(getuid()) finds the key in the user keyring; no other uid can read it"
        case .notCached: return "no: no key is cached in the user keyring"
        case .otherPermissions(let permissions):
            return
                "no: the cached key's permissions (\(String(permissions, radix: 16))) are not this user's alone; lock the vault and unlock it again to replace the key"
        case .unavailable(let problem): return "no: \(problem)"
        }
    }
}
