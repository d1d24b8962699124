import Foundation
import TestSupport
import Testing

/// `exec --token-file` through the binary, on a session signed in at moto: the command gets the path of a private
/// file holding a valid token, rewritten (by a real refresh) before the token expires, removed with its directory at
/// the end, also when authvault is told to stop.
@Suite struct ExecTokenFileEndToEndTests {
    /// Reads the file every 100 ms until it holds a second token (or 60 s pass), checking each token read has not
    /// expired; prints the path, the file's and directory's modes, and the seconds left and the expiry (`exp`) of the
    /// tokens seen, in order (never a token: the output is the test's).
    static let reader = """
        import base64, json, os, stat, sys, time
        path = os.environ[sys.argv[1]]
        print(path)
        print(oct(stat.S_IMODE(os.stat(path).st_mode)), oct(stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode)))
        def expiry(token):
            payload = token.split(".")[1]
            return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["exp"]
        seen, deadline = [], time.time() + 60
        while time.time() < deadline and len(seen) < 2:
            with open(path) as f:
                token = f.read()
            if time.time() >= expiry(token):
                print("expired token read")
            if not seen or seen[-1] != token:
                seen.append(token)
            time.sleep(0.1)
        print(" ".join(str(round(expiry(token) - time.time())) for token in seen))
        print(" ".join(str(expiry(token)) for token in seen))
        """

    /// The access token issued 40 s ago and expiring in 30 (so it is in no refresh window yet): the file holds it,
    /// then, 6 s before its expiry, the token of a refresh at moto, which lasts an hour. The file is 0600 in a 0700
    /// directory under $XDG_RUNTIME_DIR, gone when the command ends; no token shows on authvault's output.
    @Test func theFileHoldsAValidTokenAcrossItsExpiryAndGoesAwayAtTheEnd() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let aged = try await cli.ageTokens(expiringIn: 30, lifetime: 70)
        let run = try await cli.run([
            "exec", "--token-file", "--", PeerPython.path, "-c", Self.reader, "AUTHVAULT_TOKEN_FILE",
        ])
        #expect(run.status == 0, "\(run.stderrText)")
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines)")
        let runtime = try #require(cli.environment["XDG_RUNTIME_DIR"])
        #expect(lines[0].hasPrefix(runtime + "/authvault-token-") && lines[0].hasSuffix("/token"), "\(lines[0])")
        #expect(lines[1] == "0o600 0o700")
        let lifetimes = lines[2].split(separator: " ").compactMap { Int($0) }
        #expect(lifetimes.count == 2 && lifetimes[0] < 30 && lifetimes[1] > 3000, "\(lines[2])")
        let expiries = lines[3].split(separator: " ").compactMap { Double($0) }
        let stored = try await cli.storedRecord()
        #expect(
            expiries.first == aged["accessTokenExpiresAt"] as? Double
                && expiries.last == stored?["accessTokenExpiresAt"] as? Double,
            "first the aged token, then the refreshed one: \(expiries)")
        #expect(!FileManager.default.fileExists(atPath: (lines[0] as NSString).deletingLastPathComponent))
        #expect(run.stderr.isEmpty, "\(run.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// A runtime directory other users could write (no sticky bit), where they could swap the token's directory:
    /// refused before the command runs, naming the chmod that fixes it, and nothing is made there.
    @Test func aRuntimeDirectoryOthersCanWriteIsRefusedNamingTheChmod() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let runtime = try #require(cli.environment["XDG_RUNTIME_DIR"])
        chmod(runtime, 0o777)
        defer { chmod(runtime, 0o700) }
        let run = try await cli.run(["exec", "--token-file", "--", "/bin/sh", "-c", "echo ran"])
        #expect(run.status == 1 && run.stdout.isEmpty, "\(run.status) \(run.stderrText)")
        #expect(run.stderrText.contains("chmod 0755 '\(runtime)'"), "\(run.stderrText)")
        let made = try FileManager.default.contentsOfDirectory(atPath: runtime)
        #expect(!made.contains { $0.hasPrefix("authvault-token-") }, "\(made)")
        cli.expectNoSecretLeaks()
    }

    /// `--id --env NAME` names the variable and holds the ID token; SIGTERM sent to authvault reaches the command,
    /// whose death by it is authvault's status (128 + 15), and the directory is gone all the same.
    @Test func theIDTokenUnderAChosenNameAndTheDirectoryGoesOnSIGTERM() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let process = try InteractiveProcess(
            cli.authvault,
            [
                "exec", "--token-file", "--id", "--env", "ID_TOKEN_FILE", "--", "/bin/sh", "-c",
                #"echo "$ID_TOKEN_FILE"; cat "$ID_TOKEN_FILE"; echo; while :; do sleep 0.1; done"#,
            ], environment: cli.environment)
        let path = try #require(process.readLine(timeout: 60))
        let token = process.readLine()
        let stored = try await cli.storedRecord()
        expectSecret(token, equals: stored?["idToken"] as? String, "the ID token")
        cli.remember(token ?? "", as: "the ID token read by the command")
        #expect(FileManager.default.fileExists(atPath: path))
        process.kill(signal: SIGTERM, timeout: 30)
        #expect(process.terminationSignal == nil && process.finish() == 128 + SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))

        // The supervised command is found as the replacing one is (CommandSearch): 127 when missing, 126 when not runnable.
        let missing = try await cli.run(["exec", "--token-file", "--", "no-such-command-authvault"])
        #expect(missing.status == 127 && missing.stderrText.contains("Cannot run"), "\(missing.stderrText)")
        let notExecutable = try await cli.run(["exec", "--token-file", "--", cli.configPath])
        #expect(notExecutable.status == 126, "\(notExecutable.stderrText)")
        let mixed = try await cli.run(["exec", "--token-file", "--aws", "--", "/bin/true"])
        #expect(mixed.status == 2, "\(mixed.stderrText)")
        cli.expectNoSecretLeaks()
    }
}
