import Foundation
import TestSupport
import Testing

/// The built Examples/Embedding (`authvault-embedding-example`) against moto, in an empty home: the pool and the
/// vault given on its command line, no configuration file, no environment it reads. It signs in with a password,
/// then reopens the stored session with the passphrase alone; each time it prints the `sub` the pool gave the user
/// and no secret, and (traced by strace) writes nothing outside the vault's directory and no key to a keyring.
@Suite struct EmbeddingExampleTests {
    let example = BuiltProducts.executable("authvault-embedding-example")
    let root: TemporaryDirectory
    let passphrase = "embedding passphrase \(UUID().uuidString.prefix(6))"

    init() throws {
        root = try TemporaryDirectory(prefix: "embedding-example")
        for directory in ["home", "tmp", "traces"] {
            try FileManager.default.createDirectory(
                atPath: root.appending(directory), withIntermediateDirectories: false)
        }
    }

    var vaultDirectory: String { root.appending("vault") }
    var home: String { root.appending("home") }

    /// An empty home, and every XDG directory and TMPDIR in it or beside it, so a write there would show.
    var environment: [String: String] {
        [
            "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
            "XDG_STATE_HOME": home + "/.local/state",
            "XDG_CACHE_HOME": home + "/.cache", "XDG_RUNTIME_DIR": home + "/runtime", "TMPDIR": root.appending("tmp"),
            "PATH": "/usr/bin:/bin",
        ]
    }

    func arguments(_ pool: CognitoPool, _ extra: [String] = []) -> [String] {
        [
            "--user-pool-id", pool.poolId, "--client-id", pool.clientId, "--endpoint", pool.moto.endpoint, "--jwks-url",
            pool.jwksURL,
            "--vault-directory", vaultDirectory,
        ] + extra
    }

    /// The example under strace, with `lines` on standard input; its output and what it changed.
    func traced(_ arguments: [String], lines: [String], run: String) async throws -> (ProcessOutput, WriteTrace) {
        let prefix = root.appending("traces/\(run)")
        let output = try await BoundedProcess.run(
            "/usr/bin/strace", WriteTrace.straceArguments(output: prefix) + [example] + arguments,
            stdin: Data(lines.map { $0 + "\n" }.joined().utf8), environment: environment, timeout: 60)
        return (output, try WriteTrace(output: prefix))
    }

    /// Files and directories below `path`.
    func entries(under path: String) -> [String] {
        FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
    }

    @Test func signsInThenReopensTheSessionPrintingThePoolsSubAndWritingOnlyInTheVaultDirectory() async throws {
        let pool = try await CognitoPool.make()
        let password = "Embedding-\(UUID().uuidString.prefix(8))!"
        try await pool.createUser("ada", password: password)
        let subject = try #require(try await pool.subject(of: "ada"))

        let (first, firstWrites) = try await traced(
            arguments(pool, ["--username", "ada"]), lines: [password, passphrase], run: "first")
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(first.stdoutText == "sub=\(subject)\n")
        #expect(
            firstWrites.paths.contains { $0.hasSuffix("/vault/vault.key") },
            "the trace saw the vault written: \(firstWrites.paths)")

        let (second, secondWrites) = try await traced(arguments(pool), lines: [passphrase], run: "second")
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(second.stdoutText == "sub=\(subject)\n", "the stored session, reopened")

        for writes in [firstWrites, secondWrites] {
            #expect(
                writes.paths(outside: vaultDirectory).isEmpty,
                "written outside the vault directory: \(writes.paths(outside: vaultDirectory))")
            #expect(writes.keysAdded == 0, "no key went to a keyring")
        }
        #expect(entries(under: home).isEmpty, "the home stays empty: \(entries(under: home))")
        #expect(entries(under: root.appending("tmp")).isEmpty, "TMPDIR stays empty")

        let wrong = try await BoundedProcess.run(
            example, arguments(pool), stdin: Data("not the passphrase\n".utf8), environment: environment, timeout: 30)
        #expect(wrong.status == 4 && wrong.stdout.isEmpty, "\(wrong.stderrText)")

        let tokens = try await storedTokens()
        #expect(!tokens.isEmpty)
        for output in [first, second, wrong] {
            expectNoSecrets(in: output.stdoutText + output.stderrText, [password, passphrase] + tokens)
        }
    }

    /// `--sign-out` ends the session it printed the `sub` of; the next run, with no user to sign in, says how to.
    @Test func afterSigningOutTheNextRunAsksForAUser() async throws {
        let pool = try await CognitoPool.make()
        let password = "Embedding-\(UUID().uuidString.prefix(8))!"
        try await pool.createUser("ada", password: password)
        let signIn = try await BoundedProcess.run(
            example, arguments(pool, ["--username", "ada", "--sign-out"]),
            stdin: Data("\(password)\n\(passphrase)\n".utf8), environment: environment, timeout: 30)
        #expect(signIn.status == 0 && signIn.stdoutText.hasPrefix("sub="), "\(signIn.stderrText)")
        #expect(try await storedTokens().isEmpty, "the record's session is gone")

        let reopen = try await BoundedProcess.run(
            example, arguments(pool), stdin: Data("\(passphrase)\n".utf8), environment: environment, timeout: 30)
        #expect(reopen.status == 3)
        #expect(reopen.stdout.isEmpty)
        #expect(reopen.stderrText.contains("--username"), "\(reopen.stderrText)")
    }

    /// Wrong input is said plainly, with a nonzero status, and writes nothing: options, standard input, the pool's
    /// settings, the passphrase.
    @Test func badInputIsAClearErrorWithANonzeroStatus() async throws {
        let pool = try await CognitoPool.make()
        func run(_ arguments: [String], stdin: String) async throws -> ProcessOutput {
            try await BoundedProcess.run(
                example, arguments, stdin: Data(stdin.utf8), environment: environment, timeout: 30)
        }
        let missing = try await run(
            ["--user-pool-id", pool.poolId, "--vault-directory", vaultDirectory], stdin: "\(passphrase)\n")
        #expect(missing.status == 2 && missing.stderrText.contains("--client-id is needed"), "\(missing.stderrText)")
        let unknown = try await run(arguments(pool, ["--password", "hunter2"]), stdin: "")
        #expect(
            unknown.status == 2 && unknown.stderrText.contains("unknown option --password"), "\(unknown.stderrText)")
        let noInput = try await run(arguments(pool, ["--username", "ada"]), stdin: "")
        #expect(noInput.status == 2 && noInput.stderrText.contains("the password"), "\(noInput.stderrText)")
        let relative = try await run(
            ["--user-pool-id", pool.poolId, "--client-id", pool.clientId, "--vault-directory", "vault"],
            stdin: "\(passphrase)\n")
        #expect(relative.status == 2 && relative.stderrText.contains("--vault-directory"), "\(relative.stderrText)")
        let plainHTTP = try await run(
            arguments(pool, ["--endpoint", "http://cognito.example.com/"]), stdin: "\(passphrase)\n")
        #expect(plainHTTP.status == 2 && plainHTTP.stderrText.contains("--endpoint"), "\(plainHTTP.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: vaultDirectory), "nothing was written")
        for output in [missing, unknown, noInput, relative, plainHTTP] {
            #expect(output.stdout.isEmpty)
            expectNoSecrets(in: output.stderrText, [passphrase])
        }
    }

    /// The tokens of the record the example keeps (read with vault-probe), to look for in its output.
    func storedTokens() async throws -> [String] {
        let probe = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            ["load", "--backend", "file", "--directory", vaultDirectory, "--cache", "none", "--profile", "default"],
            environment: environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": passphrase]) { $1 }, timeout: 30)
        let outcome = try JSONSerialization.jsonObject(with: probe.stdout) as? [String: Any] ?? [:]
        let record = outcome["record"] as? [String: Any] ?? [:]
        return ["accessToken", "idToken", "refreshToken"].compactMap { record[$0] as? String }
    }
}
