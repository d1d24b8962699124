// vault-probe: runs one TokenVault operation in a process of its own and prints a one-line JSON outcome.
// The TokenVault tests drive it: libsecret connects to the bus named by DBUS_SESSION_BUS_ADDRESS once per process,
// and the cross-process tests need many processes at once. Test code only; never installed.
//
//   vault-probe OPERATION [options]
//   operations: save (record JSON on stdin) | load | at-hand (the record without waiting, when its key is at hand) | delete | list | status | lock | change-passphrase [--rekey]
//               | hammer (alternate save and load --count times, checking every record read is whole)
//               | write-loop (save revisions 1, 2, 3, ... until killed; prints "ready" after the first)
//               | status-watch (prints the status now, then again for every line read on stdin, until its end:
//                 one long-lived process, as the agent is)
//   options:    --backend secret-service|file   --profile NAME (default work)
//               secret service: --timeout-ms N --allow-prompt --prompt-timeout-ms N --pool ID --client ID
//                               --directory DIR (its change stamps; default $XDG_DATA_HOME/authvault)
//               file: --directory DIR --logn N --cache none|session --cache-timeout SECONDS
//                     --count N --writer ID
//               --openssl-at-exit: exit 86 if OpenSSL has torn itself down before the exit handlers
//                                  registered ahead of it run (where other threads may still use it)
//   passphrases come from the environment, never the command line: AUTHVAULT_PROBE_PASSPHRASE and, for
//   change-passphrase, AUTHVAULT_PROBE_NEW_PASSPHRASE.
import AuthCrypto
import Foundation
import SystemPlumbing
import TokenVault

struct ProbeOptions {
    var operation = ""
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ arguments: [String]) {
        var remaining = arguments.makeIterator()
        operation = remaining.next() ?? ""
        while let argument = remaining.next() {
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.dropFirst(2))
            if ["allow-prompt", "rekey", "openssl-at-exit"].contains(name) {
                flags.insert(name)
            } else {
                values[name] = remaining.next() ?? ""
            }
        }
    }

    func int(_ name: String, _ fallback: Int) -> Int { values[name].flatMap(Int.init) ?? fallback }
    var profile: String { values["profile"] ?? "work" }
}

/// The record as the tests write and read it: plain strings, so a test compares what it sent with what came back.
enum ProbeRecord {
    static func decode(_ object: [String: Any]) -> CredentialRecord {
        var record = CredentialRecord(profile: object["profile"] as? String ?? "work")
        record.revision = UInt64(object["revision"] as? Int ?? 0)
        record.accessToken = (object["accessToken"] as? String).map { SecretBytes(utf8: $0) }
        record.idToken = (object["idToken"] as? String).map { SecretBytes(utf8: $0) }
        record.refreshToken = (object["refreshToken"] as? String).map { SecretBytes(utf8: $0) }
        record.clientSecret = (object["clientSecret"] as? String).map { SecretBytes(utf8: $0) }
        record.accessTokenExpiresAt = object["accessTokenExpiresAt"] as? Double
        record.clockOffset = object["clockOffset"] as? Double
        record.refusedClockOffset = object["refusedClockOffset"] as? Double
        if let bootID = object["clockBootID"] as? String,
            let providerMinusBoot = object["clockProviderMinusBoot"] as? Double
        {
            record.clockAnchor = ProviderClockAnchor(bootID: bootID, providerMinusBoot: providerMinusBoot)
        }
        if let username = object["username"] as? String {
            let federated = (object["federated"] as? [[String]] ?? []).map {
                UserIdentity.FederatedLink(provider: $0[0], userId: $0[1])
            }
            record.identity = UserIdentity(
                username: username, subject: object["subject"] as? String, email: object["email"] as? String,
                federated: federated)
        }
        record.origin = (object["origin"] as? String).flatMap(SessionOrigin.init(rawValue:))
        record.identityId = object["identityId"] as? String
        record.identityPoolId = object["identityPoolId"] as? String
        if let key = object["deviceKey"] as? String, let groupKey = object["deviceGroupKey"] as? String,
            let password = object["devicePassword"] as? String
        {
            record.device = DeviceEntry(
                key: key, groupKey: groupKey, password: SecretBytes(utf8: password),
                name: object["deviceName"] as? String ?? "test")
        }
        if let keyId = object["awsAccessKeyId"] as? String, let secretKey = object["awsSecretAccessKey"] as? String,
            let sessionToken = object["awsSessionToken"] as? String, let expiresAt = object["awsExpiresAt"] as? Double
        {
            record.awsCredentials = AWSCredentialEntry(
                accessKeyId: keyId, secretAccessKey: SecretBytes(utf8: secretKey),
                sessionToken: SecretBytes(utf8: sessionToken), expiresAt: expiresAt,
                scope: (object["awsIdentityPoolId"] as? String).map {
                    AWSCredentialScope(identityPoolId: $0, roleARN: object["awsRoleARN"] as? String)
                })
        }
        return record
    }

    static func encode(_ record: CredentialRecord) -> [String: Any] {
        var object: [String: Any] = ["profile": record.profile, "revision": Int(record.revision)]
        object["accessToken"] = record.accessToken.map(text)
        object["idToken"] = record.idToken.map(text)
        object["refreshToken"] = record.refreshToken.map(text)
        object["clientSecret"] = record.clientSecret.map(text)
        object["accessTokenExpiresAt"] = record.accessTokenExpiresAt
        object["clockOffset"] = record.clockOffset
        object["refusedClockOffset"] = record.refusedClockOffset
        object["clockBootID"] = record.clockAnchor?.bootID
        object["clockProviderMinusBoot"] = record.clockAnchor?.providerMinusBoot
        object["username"] = record.identity?.username
        object["email"] = record.identity?.email
        object["subject"] = record.identity?.subject
        if let federated = record.identity?.federated, !federated.isEmpty {
            object["federated"] = federated.map { [$0.provider, $0.userId] }
        }
        object["origin"] = record.origin?.rawValue
        if !record.pendingRevocations.isEmpty {
            object["pendingRevocationTokens"] = record.pendingRevocations.map { text($0.refreshToken) }
        }
        object["identityId"] = record.identityId
        object["awsAccessKeyId"] = record.awsCredentials?.accessKeyId
        object["awsSecretAccessKey"] = record.awsCredentials.map { text($0.secretAccessKey) }
        object["awsSessionToken"] = record.awsCredentials.map { text($0.sessionToken) }
        object["awsExpiresAt"] = record.awsCredentials?.expiresAt
        object["awsIdentityPoolId"] = record.awsCredentials?.scope?.identityPoolId
        object["awsRoleARN"] = record.awsCredentials?.scope?.roleARN
        object["identityPoolId"] = record.identityPoolId
        return object
    }

    /// A record whose every secret names `tag`, so a reader can tell a whole record from a mix of two.
    static func tagged(profile: String, tag: String, revision: Int) -> CredentialRecord {
        decode([
            "profile": profile, "revision": revision, "accessToken": "access-\(tag)", "idToken": "id-\(tag)",
            "refreshToken": "refresh-\(tag)", "clientSecret": "secret-\(tag)", "username": tag,
        ])
    }

    static func isWhole(_ record: CredentialRecord) -> Bool {
        guard let tag = record.identity?.username else { return false }
        return record.accessToken.map(text) == "access-\(tag)" && record.idToken.map(text) == "id-\(tag)"
            && record.refreshToken.map(text) == "refresh-\(tag)" && record.clientSecret.map(text) == "secret-\(tag)"
    }

    private static func text(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}

func outcomeName(_ error: VaultError) -> String {
    switch error {
    case .locked: return "locked"
    case .unavailable: return "unavailable"
    case .timedOut: return "timedOut"
    case .passphraseRequired: return "passphraseRequired"
    case .lockedUntilUnlocked: return "lockedUntilUnlocked"
    case .wrongPassphrase: return "wrongPassphrase"
    case .corrupted: return "corrupted"
    case .unsupportedVersion: return "unsupportedVersion"
    case .unsafePermissions: return "unsafePermissions"
    case .lockTimedOut: return "lockTimedOut"
    case .io: return "io"
    }
}

func stateName(_ state: VaultStatus.State) -> String {
    switch state {
    case .available: return "available"
    case .locked: return "locked"
    case .unavailable: return "unavailable"
    case .timedOut: return "timedOut"
    }
}

func statusObject(_ status: VaultStatus) -> [String: Any] {
    var object: [String: Any] = [
        "state": stateName(status.state), "location": status.location, "details": status.details,
    ]
    if case .unavailable(let detail) = status.state { object["detail"] = detail }
    return object
}

func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func environmentSecret(_ name: String) -> SecretBytes? {
    ProcessInfo.processInfo.environment[name].map { SecretBytes(utf8: $0) }
}

func makeVault(_ options: ProbeOptions) -> any VaultBackend {
    if options.values["backend"] == "file" { return makeFileVault(options) }
    return SecretServiceVault(
        changeStamps: ChangeStamps(dataDirectory: options.values["directory"] ?? dataDirectory()),
        bindings: bindings(options), timeout: .milliseconds(options.int("timeout-ms", 3000)),
        allowPrompt: options.flags.contains("allow-prompt"),
        promptTimeout: .milliseconds(options.int("prompt-timeout-ms", 120_000)))
}

/// Where the CLI would keep the data: the Secret Service's change stamps go there too.
func dataDirectory() -> String {
    let environment = ProcessInfo.processInfo.environment
    return (environment["XDG_DATA_HOME"] ?? (environment["HOME"] ?? ".") + "/.local/share") + "/authvault"
}

func makeFileVault(_ options: ProbeOptions) -> EncryptedFileVault {
    let passphrase =
        environmentSecret("AUTHVAULT_PROBE_PASSPHRASE").map(PassphraseSource.fixed)
        ?? .unavailable("set AUTHVAULT_PROBE_PASSPHRASE")
    let cache: DataKeyCache
    let timeout = Duration.seconds(options.int("cache-timeout", 3600))
    cache = options.values["cache"] == "keyring" ? .userKeyring(timeout: timeout) : .disabled
    let logN = options.values["logn"].flatMap(UInt8.init)
    let parameters = logN.map { ScryptParameters(logN: $0, r: 8, p: 1) } ?? EncryptedFileVault.defaultKDFParameters
    return EncryptedFileVault(
        directory: options.values["directory"] ?? ".", passphrase: passphrase,
        kdfParameters: parameters, keyCache: cache, bindings: bindings(options))
}

/// `--pool` and `--client`: the profile's binding, as the CLI gives both backends.
func bindings(_ options: ProbeOptions) -> [String: ProfileBinding] {
    guard let pool = options.values["pool"], let client = options.values["client"] else { return [:] }
    return [options.profile: ProfileBinding(userPoolId: pool, clientId: client)]
}

func run(_ options: ProbeOptions, vault: any VaultBackend) async throws(VaultError) -> [String: Any] {
    let profile = options.profile
    switch options.operation {
    case "save":
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let object = (try? JSONSerialization.jsonObject(with: input)) as? [String: Any] ?? [:]
        try await vault.save(ProbeRecord.decode(object))
        return [:]
    case "load":
        guard let record = try await vault.load(profile: profile) else { return ["outcome": "notFound"] }
        return ["record": ProbeRecord.encode(record)]
    case "at-hand":
        // The file vault's read without waiting, then whether this process (already) holds the key.
        guard let atHand = vault as? any VaultRecordAtHand else { return ["outcome": "unsupported"] }
        guard let record = atHand.recordAtHand(profile: profile)?.record else { return ["outcome": "notAtHand"] }
        return ["record": ProbeRecord.encode(record)]
    case "delete":
        try await vault.delete(profile: profile)
        return [:]
    case "list":
        return ["profiles": try await vault.profiles()]
    case "status":
        return statusObject(await vault.status())
    case "status-watch":
        emit(statusObject(await vault.status()))
        while readLine() != nil { emit(statusObject(await vault.status())) }
        return [:]
    case "lock":
        try await (vault as! EncryptedFileVault).lock()
        return [:]
    case "change-passphrase":
        guard let new = environmentSecret("AUTHVAULT_PROBE_NEW_PASSPHRASE") else {
            throw .passphraseRequired("set AUTHVAULT_PROBE_NEW_PASSPHRASE")
        }
        try await (vault as! EncryptedFileVault).changePassphrase(new: new, rekey: options.flags.contains("rekey"))
        return [:]
    case "hammer":
        return try await hammer(options, vault: vault)
    case "write-loop":
        var revision = 1
        while true {
            try await vault.save(ProbeRecord.tagged(profile: profile, tag: "rev\(revision)", revision: revision))
            if revision == 1 { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
            revision += 1
        }
    default:
        throw .io("unknown operation '\(options.operation)'")
    }
}

/// Saves and loads the same profile in turn; every record read must be whole (all secrets from one write).
func hammer(_ options: ProbeOptions, vault: any VaultBackend) async throws(VaultError) -> [String: Any] {
    let writer = options.values["writer"] ?? "\(getpid())"
    var saves = 0
    var loads = 0
    var torn = 0
    for index in 0..<options.int("count", 50) {
        if index % 2 == 0 {
            try await vault.save(
                ProbeRecord.tagged(profile: options.profile, tag: "\(writer)-\(index)", revision: index))
            saves += 1
        } else {
            loads += 1
            if let record = try await vault.load(profile: options.profile), !ProbeRecord.isWhole(record) { torn += 1 }
        }
    }
    return ["saves": saves, "loads": loads, "torn": torn]
}

/// Registered before the first OpenSSL call, so it runs after any exit handler OpenSSL registers: OpenSSL refuses
/// to initialize once its clean-up has run.
func checkOpenSSLAtExit() {
    atexit {
        guard let library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_NOLOAD),
            let address = dlsym(library, "OPENSSL_init_crypto")
        else { return }
        typealias Initialize = @convention(c) (UInt64, OpaquePointer?) -> Int32
        let baseOnly: UInt64 = 0x0004_0000  // OPENSSL_INIT_BASE_ONLY
        if unsafeBitCast(address, to: Initialize.self)(baseOnly, nil) != 1 { _exit(86) }
    }
}

let options = ProbeOptions(Array(CommandLine.arguments.dropFirst()))
if options.flags.contains("openssl-at-exit") { checkOpenSSLAtExit() }
let vault = makeVault(options)
let started = ContinuousClock.now
var output: [String: Any]
do {
    output = try await run(options, vault: vault)
    if output["outcome"] == nil { output["outcome"] = "ok" }
} catch {
    output = ["outcome": outcomeName(error), "message": error.description]
}
let elapsed = ContinuousClock.now - started
output["elapsedMs"] = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
output["kdfRuns"] = EncryptedFileVault.keyDerivationCount
emit(output)
