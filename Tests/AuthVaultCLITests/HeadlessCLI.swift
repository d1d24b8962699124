import AuthVaultApp
import Foundation
import SystemPlumbing
import TestSupport

@testable import AuthVaultCLI

/// The built `authvault` on a headless machine: isolated HOME and XDG directories with no session bus (so the
/// encrypted file vault holds the tokens), the vault passphrase in the environment and no key cache (nothing left
/// in the user keyring). Every run is kept, and every secret the test comes across is remembered by name, for
/// `expectNoSecretLeaks()`.
final class HeadlessCLI: Sendable {
    static let vaultPassphrase = "e2e vault passphrase words"
    static let profile = "default"

    struct Run: Sendable {
        /// The command's name only: arguments can carry a code that must not reach the test output.
        let command: String
        let stdout: String
        /// Standard error; for a run on a terminal, the whole screen.
        let stderr: String
        /// `authvault token` prints a token on stdout by design, `aws-credentials` the AWS secret key and session token.
        var stdoutMayHoldTokens: Bool { command == "token" || command == "aws-credentials" }
    }

    /// What a terminal showed (prompts, echoed input, output), how the command ended, how many answers were typed.
    struct TerminalRun: Sendable {
        let screen: String
        let status: Int32
        let answered: Int
    }

    let session: SecretServiceSession
    let environment: [String: String]
    let authvault = BuiltProducts.executable("authvault")
    private let probe = BuiltProducts.executable("vault-probe")
    private let runs = Locked<[Run]>([])
    private let secrets = Locked<[String: String]>([:])

    /// - Parameter setup: `.noBus` (the encrypted file vault) unless a test needs a Secret Service.
    init(_ setup: SecretServiceSession.Setup = .noBus) throws {
        session = try SecretServiceSession(setup)
        environment = session.environment.merging(
            ["AUTHVAULT_VAULT_PASSPHRASE": Self.vaultPassphrase, "AUTHVAULT_KEY_CACHE_TIMEOUT": "0"]) { $1 }
        remember(Self.vaultPassphrase, as: "the vault passphrase")
    }

    var root: String { session.root.path }
    var dataDirectory: String { session.environment["XDG_DATA_HOME"]! + "/authvault" }
    var configPath: String { session.environment["XDG_CONFIG_HOME"]! + "/authvault/config.json" }
    var recordPath: String { "\(dataDirectory)/\(Self.profile).record" }
    var keyFilePath: String { "\(dataDirectory)/vault.key" }
    var lockPath: String { "\(dataDirectory)/locks/\(Self.profile).lock" }

    var transcript: [Run] { runs.withLock { $0 } }
    /// Secret value to what it is.
    var knownSecrets: [String: String] { secrets.withLock { $0 } }

    func remember(_ secret: String, as name: String) {
        guard !secret.isEmpty else { return }
        secrets.withLock { $0[secret] = $0[secret] ?? name }
    }

    // MARK: Running the CLI

    /// `authvault ARGUMENTS`, with `stdin` as its standard input (not a terminal either way).
    /// - Parameter extraEnvironment: added to the environment (what a browser command of the test reads).
    /// - Parameter wrapper: a command that runs authvault, such as `faketime -f -600s`.
    @discardableResult
    func run(
        _ arguments: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:],
        wrapper: [String] = []
    ) async throws -> ProcessOutput {
        let command = wrapper + [authvault] + arguments
        let output = try await BoundedProcess.run(
            command[0], Array(command.dropFirst()), stdin: stdin.map { Data($0.utf8) },
            environment: environment.merging(extraEnvironment) { $1 }, timeout: 90)
        keep(Run(command: arguments.first ?? "", stdout: output.stdoutText, stderr: output.stderrText))
        return output
    }

    /// `authvault ARGUMENTS` in this process, with this machine's environment and `stdin` given: for commands that
    /// need no process of their own (no terminal, no signals, no agent, no Secret Service, whose libsecret reads the
    /// process's environment, not the one given).
    @discardableResult
    func runInProcess(_ arguments: [String], stdin: String? = nil, extraEnvironment: [String: String] = [:]) async
        -> ProcessOutput
    {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await AuthVault.run(
            arguments: arguments, environment: environment.merging(extraEnvironment) { $1 },
            standardOutput: out, standardError: err, standardInput: GivenInput(stdin ?? ""))
        keep(Run(command: arguments.first ?? "", stdout: out.text, stderr: err.text))
        return ProcessOutput(status: status.rawValue, stdout: Data(out.text.utf8), stderr: Data(err.text.utf8))
    }

    /// `count` processes of `authvault ARGUMENTS` started at once.
    func runConcurrently(_ count: Int, _ arguments: [String]) async throws -> [ProcessOutput] {
        try await withThrowingTaskGroup(of: ProcessOutput.self) { group in
            for _ in 0..<count { group.addTask { try await self.run(arguments) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// On a pseudo-terminal, typing `answers` at their prompts. The screen is kept like standard error.
    func runOnTerminal(
        _ arguments: [String], answers: [(prompt: String, answer: String)],
        extraEnvironment: [String: String] = [:], columns: Int? = nil
    ) async throws -> TerminalRun {
        let command = [authvault] + arguments
        let environment = self.environment.merging(["TERM": "dumb"]) { $1 }.merging(extraEnvironment) { $1 }
        let run = try await OffPool.run {
            let session = try PseudoTerminal.run(command, answers: answers, environment: environment, columns: columns)
            return TerminalRun(screen: session.screen, status: session.status, answered: session.answered)
        }
        keep(Run(command: arguments.first ?? "", stdout: "", stderr: run.screen))
        return run
    }

    private func keep(_ run: Run) {
        runs.withLock { $0.append(run) }
        if run.stdoutMayHoldTokens {
            for token in TestJWT.tokens(in: run.stdout) { remember(token, as: "a token printed by 'authvault token'") }
        }
    }

    /// A profile for `pool`, its calls sent to `endpoint` (moto itself by default, or a fault proxy in front of it),
    /// keys from moto's JWKS, the app client's secret (if any) stored with --client-secret-stdin.
    func configure(_ pool: CognitoPool, endpoint: String? = nil) async throws {
        var arguments = [
            "configure", "--user-pool-id", pool.poolId, "--client-id", pool.clientId,
            "--endpoint", endpoint ?? pool.moto.endpoint, "--jwks-url", pool.jwksURL,
        ]
        if let secret = pool.clientSecret {
            remember(secret, as: "the app client secret")
            arguments.append("--client-secret-stdin")
        }
        let output = try await run(arguments, stdin: pool.clientSecret.map { $0 + "\n" })
        guard output.status == 0 else {
            throw TestFixtureError("configure exited \(output.status): \(output.stderrText)")
        }
    }

    /// `authvault login --password --username U --password-stdin EXTRA` with `lines` on standard input (the
    /// password first). After a sign-in, the stored tokens are remembered as secrets.
    @discardableResult
    func login(_ username: String, lines: [String], _ extra: [String] = [], wrapper: [String] = []) async throws
        -> ProcessOutput
    {
        for (index, line) in lines.enumerated() { remember(line, as: index == 0 ? "the password" : "a new password") }
        let output = try await run(
            ["login", "--password", "--username", username, "--password-stdin"] + extra,
            stdin: lines.map { $0 + "\n" }.joined(), wrapper: wrapper)
        if output.status == 0 { _ = try await storedRecord() }
        return output
    }

    // MARK: The vault record, through vault-probe

    /// The profile's record as vault-probe reads it (its plain JSON form), nil when there is none. Its secrets
    /// are remembered.
    func storedRecord(profile: String = HeadlessCLI.profile) async throws -> [String: Any]? {
        let result = try await probeRun(["load"], profile: profile)
        if result["outcome"] as? String == "notFound" { return nil }
        guard result["outcome"] as? String == "ok", let record = result["record"] as? [String: Any] else {
            throw TestFixtureError("vault-probe load: \(result["outcome"] ?? "no outcome")")
        }
        for field in [
            "accessToken", "idToken", "refreshToken", "clientSecret", "awsSecretAccessKey", "awsSessionToken",
        ] {
            if let value = record[field] as? String { remember(value, as: "the stored \(field)") }
        }
        for token in record["pendingRevocationTokens"] as? [String] ?? [] {
            remember(token, as: "a refresh token kept to revoke")
        }
        return record
    }

    func saveRecord(_ record: [String: Any]) async throws {
        let result = try await probeRun(["save"], stdin: try JSONSerialization.data(withJSONObject: record))
        guard result["outcome"] as? String == "ok" else {
            throw TestFixtureError("vault-probe save: \(result["outcome"] ?? "no outcome")")
        }
    }

    /// Puts the signed-in session where a test wants it in its lifetime without waiting: the access and ID tokens
    /// (a machine profile has no ID token) are replaced by unsigned copies issued `lifetime` seconds (an hour) before
    /// `expiresAt` and expiring then (relative to now); the refresh token and user name stay. Returns the record as
    /// saved.
    @discardableResult
    func ageTokens(expiringIn seconds: Double, lifetime: Int = 3600) async throws -> [String: Any] {
        guard var record = try await storedRecord(), record["accessToken"] is String else {
            throw TestFixtureError("no signed-in session to age")
        }
        let expiresAt = (Date().timeIntervalSince1970 + seconds).rounded()
        for field in ["accessToken", "idToken"] {
            guard let token = record[field] as? String else { continue }
            var claims = TestJWT.claims(of: token) ?? [:]
            claims["iat"] = Int(expiresAt) - lifetime
            claims["exp"] = Int(expiresAt)
            let stub = try TestJWT.unsigned(claims)
            record[field] = stub
            remember(stub, as: "an aged \(field)")
        }
        record["accessTokenExpiresAt"] = expiresAt
        record["revision"] = (record["revision"] as? Int ?? 0) + 1
        try await saveRecord(record)
        return record
    }

    /// The record file's bytes (sealed: a fresh nonce per write, so equal bytes mean nothing was written).
    var recordBytes: Data? { FileManager.default.contents(atPath: recordPath) }

    private func probeRun(_ arguments: [String], stdin: Data? = nil, profile: String = HeadlessCLI.profile)
        async throws -> [String: Any]
    {
        let output = try await BoundedProcess.run(
            probe,
            arguments + [
                "--backend", "file", "--directory", dataDirectory, "--cache", "none", "--profile", profile,
            ],
            stdin: stdin,
            environment: session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": Self.vaultPassphrase]) { $1 })
        let line = output.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }
}
