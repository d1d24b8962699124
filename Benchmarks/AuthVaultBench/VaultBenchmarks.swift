import AuthCrypto
import FoundationEssentials
import TokenVault

#if canImport(Glibc)
    import Glibc
#endif

/// Reading a profile's credentials from each backend, against `secret-tool lookup` of an item of the same size,
/// and the encrypted file's key derivation against Python's hashlib.scrypt with the same parameters.
/// Needs a Secret Service on the session bus: `make bench` runs the harness under Scripts/with-secret-service.sh.
enum VaultBenchmarks {
    /// The Secret Service's time-out in the benchmark's own processes: a keyring daemon that has just started on a
    /// loaded machine may take longer than the default 3 s to answer its first write, and a benchmark measures the
    /// answers it gets rather than failing.
    static let secretServiceTimeout = Duration.seconds(30)

    static func run(rounds: Int) async throws -> [Row] {
        let record = sampleRecord()
        let size = record.serialized().count
        let lookup = try secretToolLookup(size: size, rounds: rounds)
        let peer = "secret-tool lookup " + formatSpread(lookup)

        let directory = try makeTemporaryDirectory()
        defer { removeTree(directory) }
        let secretService = SecretServiceVault(
            changeStamps: ChangeStamps(dataDirectory: directory),
            bindings: ["bench": .init(userPoolId: "us-east-1_Bench", clientId: "bench")], timeout: secretServiceTimeout)
        try await secretService.save(record)
        let secretServiceRead = try await measureAsync(rounds: rounds) {
            _ = try await secretService.load(profile: "bench")
        }
        try await secretService.delete(profile: "bench")

        let passphrase = PassphraseSource.fixed(SecretBytes(utf8: "benchmark passphrase"))
        let writer = EncryptedFileVault(directory: directory, passphrase: passphrase)
        try await writer.save(record)

        // A new vault object per read stands for a new process: the key comes from the user keyring (the lock below
        // takes it out again).
        let keyringRead = try await measureAsync(rounds: rounds) {
            _ = try await EncryptedFileVault(directory: directory, passphrase: passphrase).load(profile: "bench")
        }
        let memoryRead = try await measureAsync(rounds: rounds) { _ = try await writer.load(profile: "bench") }
        let coldRead = try await measureAsync(rounds: 5, warmup: 1) {
            _ = try await EncryptedFileVault(directory: directory, passphrase: passphrase, keyCache: .disabled).load(
                profile: "bench")
        }
        try await writer.lock()
        let parameters = EncryptedFileVault.defaultKDFParameters
        let pythonScrypt = try pythonScryptSeconds(parameters)

        return [
            Row(
                name: "vault read, file (key from keyring) [\(size) B]", ours: formatSpread(keyringRead), peer: peer,
                ratio: ratio(keyringRead.median, over: lookup.median)),
            Row(
                name: "vault read, file (key in memory)", ours: formatSpread(memoryRead), peer: peer,
                ratio: ratio(memoryRead.median, over: lookup.median)),
            Row(
                name: "vault read, secret service (in-process)", ours: formatSpread(secretServiceRead), peer: peer,
                ratio: ratio(secretServiceRead.median, over: lookup.median)),
            Row(
                name: "vault cold read, scrypt logN=\(parameters.logN) r=\(parameters.r) p=\(parameters.p)",
                ours: formatSpread(coldRead), peer: "python hashlib.scrypt " + formatDuration(pythonScrypt),
                ratio: ratio(coldRead.median, over: pythonScrypt)),
        ]
    }

    /// Token-sized secrets: Cognito's access and ID tokens are about 1 KB each, its refresh token about 1.8 KB.
    static func sampleRecord() -> CredentialRecord {
        var record = CredentialRecord(profile: "bench")
        record.accessToken = SecretBytes(utf8: String(repeating: "a", count: 1_000))
        record.idToken = SecretBytes(utf8: String(repeating: "i", count: 1_100))
        record.refreshToken = SecretBytes(utf8: String(repeating: "r", count: 1_800))
        record.accessTokenExpiresAt = 1_800_000_000
        record.idTokenExpiresAt = 1_800_000_000
        record.identity = UserIdentity(username: "bench-user", email: "bench@example.com")
        return record
    }

    private static func secretToolLookup(size: Int, rounds: Int) throws -> Samples {
        try spawnAndWait([
            "/bin/sh", "-c",
            "head -c \(size) /dev/zero | tr '\\\\0' x | secret-tool store --label=bench application authvault-bench item size",
        ])
        defer {
            try? spawnAndWait(["/usr/bin/secret-tool", "clear", "application", "authvault-bench", "item", "size"])
        }
        return try measure(rounds: rounds) {
            try spawnAndWait(["/usr/bin/secret-tool", "lookup", "application", "authvault-bench", "item", "size"])
        }
    }

    private static func pythonScryptSeconds(_ parameters: ScryptParameters) throws -> Double {
        let script = """
            import hashlib, time, statistics
            samples = []
            for _ in range(5):
                t = time.monotonic()
                hashlib.scrypt(b'benchmark passphrase', salt=b'0' * 32, n=\(1 << Int(parameters.logN)), r=\(parameters.r), p=\(parameters.p), maxmem=1 << 30, dklen=32)
                samples.append(time.monotonic() - t)
            print(statistics.median(samples))
            """
        guard let seconds = Double(try spawnAndCapture(["python3", "-c", script]).filter { !$0.isWhitespace }) else {
            throw SpawnError.failed("python3 scrypt peer", -1)
        }
        return seconds
    }

    private static func makeTemporaryDirectory() throws -> String {
        var template = Array("/tmp/authvault-bench.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SpawnError.failed("mkdtemp", errno) }
        return String(cString: made)
    }

    private static func removeTree(_ path: String) {
        try? spawnAndWait(["/bin/rm", "-rf", path])
    }
}

/// `measure` for async work.
func measureAsync(rounds: Int, warmup: Int = 3, _ body: () async throws -> Void) async rethrows -> Samples {
    for _ in 0..<warmup { try await body() }
    var samples = Samples()
    for _ in 0..<rounds {
        let start = monotonicNow()
        try await body()
        samples.add(monotonicNow() - start)
    }
    return samples
}
