import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// One person using the built `authvault` binary against moto, through a `SecretHashProxy` that checks SECRET_HASH
/// where moto does not: a user pool and app client of its own (with or without a secret), isolated HOME and XDG
/// directories with no session bus, and a file vault unlocked by AUTHVAULT_VAULT_PASSPHRASE with the key cache off
/// (nothing lands in the user keyring). Every run's standard error is kept, and every secret the scenario
/// handles (passwords, codes, the passphrase, the client secret, the tokens in the vault), so a test can check
/// that none was ever printed.
final class AccountScenario: Sendable {
    static let passphrase = "account scenario vault passphrase"

    let moto: MotoServer
    let proxy: SecretHashProxy
    let poolId: String
    let clientId: String
    let clientSecret: String?
    let directories: SecretServiceSession
    let environment: [String: String]
    private let transcript = Locked<[(arguments: [String], stderr: String)]>([])
    private let secrets = Locked<Set<String>>([])

    private init(
        moto: MotoServer, proxy: SecretHashProxy, poolId: String, clientId: String, clientSecret: String?,
        directories: SecretServiceSession
    ) {
        self.moto = moto
        self.proxy = proxy
        self.poolId = poolId
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.directories = directories
        environment = directories.environment.merging([
            "AUTHVAULT_VAULT_PASSPHRASE": Self.passphrase, "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ]) { $1 }
        remember(Self.passphrase)
        if let clientSecret { remember(clientSecret) }
    }

    /// A new pool (e-mail auto-verified, so codes have a destination) and app client, and the profile `default`
    /// configured for them, its client secret (if any) stored with `configure --client-secret-stdin`.
    static func make(withSecret: Bool) async throws -> AccountScenario {
        let moto = try await MotoServer.shared()
        let pool = try await moto.call(
            "CreateUserPool",
            [
                "PoolName": "account-\(UUID().uuidString.prefix(8))",
                "AutoVerifiedAttributes": ["email"],
            ])
        let poolId = try required(
            (pool["UserPool"] as? [String: Any])?["Id"] as? String, "CreateUserPool answered no id")
        let created = try await moto.call(
            "CreateUserPoolClient",
            [
                "UserPoolId": poolId, "ClientName": "authvault-account-test", "GenerateSecret": withSecret,
                "ReadAttributes": ["email"],
                "ExplicitAuthFlows": ["ALLOW_USER_SRP_AUTH", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
            ])
        let client = try required(
            created["UserPoolClient"] as? [String: Any], "CreateUserPoolClient answered no client")
        let clientId = try required(client["ClientId"] as? String, "no ClientId")
        let secret = withSecret ? try required(client["ClientSecret"] as? String, "moto generated no secret") : nil
        let proxy = try await SecretHashProxy.start(upstream: moto.baseURL, clientId: clientId, clientSecret: secret)
        let scenario = AccountScenario(
            moto: moto, proxy: proxy, poolId: poolId, clientId: clientId, clientSecret: secret,
            directories: try SecretServiceSession(.noBus))
        try await scenario.configure(endpoint: proxy.endpoint)
        return scenario
    }

    /// Points the profile at `endpoint` (moto's JWKS for the keys), storing the client secret when there is one.
    func configure(endpoint: String) async throws {
        let configured = try await run([
            "configure", "--user-pool-id", poolId, "--client-id", clientId, "--endpoint", endpoint,
            "--jwks-url", moto.jwksURL(poolId: poolId), "--vault", "file",
        ])
        guard configured.status == 0 else { throw TestFixtureError("configure failed: \(configured.stderrText)") }
        if let clientSecret {
            let stored = try await run(["configure", "--client-secret-stdin"], stdin: clientSecret + "\n")
            guard stored.status == 0 else {
                throw TestFixtureError("configure --client-secret-stdin failed: \(stored.stderrText)")
            }
        }
    }

    /// Runs the built binary with this scenario's environment, off the cooperative pool, and keeps its stderr.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil) async throws -> ProcessOutput {
        let binary = BuiltProducts.executable("authvault")
        let environment = environment
        let output = try await OffPool.run {
            try ProcessRunner.run(
                binary, arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment, timeout: 60)
        }
        transcript.withLock { $0.append((arguments, output.stderrText)) }
        return output
    }

    /// Keeps the standard error of a run the test drove itself (a process fed standard input as it goes).
    func record(_ arguments: [String], _ output: ProcessOutput) {
        transcript.withLock { $0.append((arguments, output.stderrText)) }
    }

    /// Runs the built binary on a pseudo-terminal, typing `answers` at its prompts. The screen shows what was echoed.
    func onTerminal(_ arguments: [String], answers: [(prompt: String, answer: String)]) async throws -> (
        screen: String, status: Int32, answered: Int
    ) {
        let command = [BuiltProducts.executable("authvault")] + arguments
        let environment = environment.merging(["TERM": "dumb"]) { $1 }
        return try await OffPool.run {
            let session = try PseudoTerminal.run(command, answers: answers, environment: environment)
            return (session.screen, session.status, session.answered)
        }
    }

    /// `login --password --auth-flow password` (moto does not verify SRP), the password on standard input.
    @discardableResult
    func login(_ username: String, password: String, extra: [String] = []) async throws -> ProcessOutput {
        let output = try await run(
            ["login", "--password", "--username", username, "--password-stdin", "--auth-flow", "password"] + extra,
            stdin: password + "\n")
        if output.status == 0 { try rememberVaultTokens() }
        return output
    }

    /// `logout`, which clears the session here first. moto has no RevokeToken, so the remote half fails (status 5).
    func logout(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let output = try await run(["logout"])
        #expect(
            output.status == 0
                || (output.status == 5 && output.stderrText.contains("The tokens are gone from this machine")),
            "\(output.stderrText)", sourceLocation: sourceLocation)
    }

    /// A confirmed user with a permanent password and an e-mail address, made through moto's admin API.
    func createUser(_ username: String, password: String, email: String) async throws {
        remember(password)
        try await moto.call(
            "AdminCreateUser",
            [
                "UserPoolId": poolId, "Username": username, "TemporaryPassword": password,
                "MessageAction": "SUPPRESS",
                "UserAttributes": [["Name": "email", "Value": email], ["Name": "email_verified", "Value": "true"]],
            ])
        try await moto.call(
            "AdminSetUserPassword",
            ["UserPoolId": poolId, "Username": username, "Password": password, "Permanent": true])
    }

    /// What `mfa status --json` says.
    struct MFAStatus: Equatable {
        let preferred: String?
        let enabled: [String]
    }

    func mfaStatus() async throws -> MFAStatus {
        let output = try await run(["mfa", "status", "--json"])
        guard output.status == 0, let object = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        else {
            throw TestFixtureError("mfa status --json failed: \(output.stderrText)")
        }
        return MFAStatus(preferred: object["preferred"] as? String, enabled: object["enabled"] as? [String] ?? [])
    }

    /// A value that must never appear on standard error.
    func remember(_ secret: String) {
        precondition(!secret.isEmpty, "an empty secret would match every output")
        secrets.withLock { _ = $0.insert(secret) }
    }

    /// The tokens now in the vault, read with python (decrypt_vault_record.py), not with the code under test.
    func rememberVaultTokens() throws {
        var environment = directories.environment
        environment["VAULT_PASSPHRASE"] = Self.passphrase
        let output = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "\(SecretServiceSession.scriptsDirectory)/decrypt_vault_record.py",
                directories.environment["XDG_DATA_HOME"]! + "/authvault", "default",
            ], environment: environment)
        guard output.status == 0 else { throw TestFixtureError("decrypt_vault_record.py failed: \(output.stderrText)") }
        let record =
            (try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])?["record"] as? [String: Any]
            ?? [:]
        for key in ["accessToken", "idToken", "refreshToken", "clientSecret"] {
            if let value = record[key] as? String, !value.isEmpty { remember(value) }
        }
        if let devicePassword = (record["device"] as? [String: Any])?["password"] as? String, !devicePassword.isEmpty {
            remember(devicePassword)
        }
    }

    /// No remembered secret in any run's standard error, in any form (`SecretScan.holds`).
    func expectNoSecretsPrinted(sourceLocation: SourceLocation = #_sourceLocation) {
        let secrets = secrets.withLock { $0 }
        for run in transcript.withLock({ $0 }) {
            for secret in secrets where SecretScan.holds(run.stderr, secret) {
                Issue.record(
                    "a secret (\(secret.count) characters) appeared on stderr of 'authvault \(run.arguments.joined(separator: " "))'",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// No remembered secret in `text` (a command's standard output that must hold none).
    func expectNoSecrets(in text: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        TestSupport.expectNoSecrets(in: text, Array(secrets.withLock { $0 }), comment, sourceLocation: sourceLocation)
    }

    /// The proxy saw calls that must carry a secret hash, all of them with the right one (or none, without a secret).
    func expectSecretHashesChecked(_ operations: Set<String>, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let records = try await proxy.records()
        let checked = Set(records.filter(\.checked).map(\.operation))
        #expect(operations.isSubset(of: checked), "checked: \(checked.sorted())", sourceLocation: sourceLocation)
        let refused = records.filter { $0.refused != nil }
        #expect(refused.isEmpty, "refused: \(refused)", sourceLocation: sourceLocation)
    }

    /// A password moto's default policy accepts (upper and lower case, a digit, a symbol), different every time.
    static func newPassword() -> String {
        "Pw-\(UUID().uuidString.prefix(12))-a1"
    }

    private static func required<T>(_ value: T?, _ message: String) throws -> T {
        guard let value else { throw TestFixtureError(message) }
        return value
    }
}
