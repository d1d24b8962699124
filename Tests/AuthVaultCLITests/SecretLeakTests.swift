import Foundation
import TestSupport
import Testing

/// Secrets stay in the vault: whole sign-in lives and the error paths that are most tempted to print one (Cognito
/// messages that echo the request back) leave no password, code, token, client secret or vault passphrase on
/// standard error, in the configuration, or in any file of the isolated HOME and XDG directories, and the vault's
/// own files hold them sealed. The other suites run the same sweep after each of their scenarios.
@Suite struct SecretLeakTests {
    /// Admin-created user with a client-secret app client: a new password, then an authenticator, a sign-in with
    /// its code, a refresh, and a global sign-out.
    @Test func aWholeSignInLifeLeavesSecretsOnlyInTheVault() async throws {
        let pool = try await CognitoPool.make(withSecret: true)
        let temporary = "Temporary-Pass-7!"
        let chosen = "Chosen-By-Frank-8!"
        try await pool.createUser("frank", temporaryPassword: temporary)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)

        #expect(try await cli.login("frank", lines: [temporary, chosen], ["--new-password-stdin"]).status == 0)
        let first = try await cli.run(["token"]).stdoutText.trimmingCharacters(in: .newlines)
        try await pool.enableAuthenticator(accessToken: first)
        let mfaLogin = try await loginAnsweringWithTheAuthenticator(cli, "frank", password: chosen)
        #expect(mfaLogin.status == 0, "\(mfaLogin.stderrText)")
        #expect(try await cli.run(["token", "--id"]).status == 0)
        #expect(try await cli.run(["status"]).status == 0)
        #expect(try await cli.run(["status", "--json"]).status == 0)

        try await cli.ageTokens(expiringIn: -120)
        let refreshed = try await cli.run(["token", "--format", "json"])
        #expect(refreshed.status == 0, "\(refreshed.stderrText)")
        let fresh =
            (try JSONSerialization.jsonObject(with: refreshed.stdout) as? [String: Any])?["token"] as? String ?? ""
        let owner = try await pool.owner(ofAccessToken: fresh)
        #expect(owner == "frank", "a token moto issued")

        // The vault does hold the secrets the sweep looks for: python opens it with the passphrase.
        let sealed = try await decryptedVaultRecord(cli)
        let holdsToken = sameSecret(sealed["accessToken"] as? String, fresh)
        let holdsClientSecret = sameSecret(sealed["clientSecret"] as? String, pool.clientSecret)
        #expect(holdsToken, "the vault holds the refreshed access token")
        #expect(holdsClientSecret, "the vault holds the client secret")
        #expect((sealed["refreshToken"] as? String)?.isEmpty == false)
        for path in [cli.recordPath, cli.keyFilePath] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(path)")
        }
        let config = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(config.contains(pool.poolId), "the sweep reads the configuration file")

        let logout = try await cli.run(["logout", "--global"])
        #expect(logout.status == 5, "\(logout.stderrText)")
        #expect(logout.stderrText.contains("Signed out everywhere."))
        cli.expectNoSecretLeaks()
        let sweptRefreshToken = cli.knownSecrets.values.contains("the stored refreshToken")
        #expect(sweptRefreshToken, "the sweep knew the refresh token")
    }

    /// moto's GlobalSignOut answers an access token it no longer knows with NotAuthorizedException whose message is
    /// that access token.
    @Test func aSignOutErrorThatEchoesTheAccessTokenIsRedacted() async throws {
        let profile = try await SignedInProfile.make()
        try await profile.pool.signOutEverywhere(SignedInProfile.username)
        let logout = try await profile.cli.run(["logout", "--global"])
        #expect(logout.status == 5)
        #expect(logout.stderrText.contains("global sign-out"))
        #expect(logout.stderrText.contains("Signed out of profile 'default' on this machine."))
        profile.cli.expectNoSecretLeaks()
    }

    /// Refused answers: a wrong password (with a client secret, so SECRET_HASH is sent) and a wrong MFA code.
    @Test func refusedAnswersLeaveTheSessionAndLeakNothing() async throws {
        let pool = try await CognitoPool.make(withSecret: true)
        let password = "Grace-Hopper-9!"
        try await pool.createUser("grace", password: password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        #expect(try await cli.login("grace", lines: [password]).status == 0)
        let access = try await cli.run(["token"]).stdoutText.trimmingCharacters(in: .newlines)
        try await pool.enableAuthenticator(accessToken: access)
        let before = try #require(cli.recordBytes)

        #expect(
            try await cli.login("grace", lines: ["Not-Graces-Password-1!"], ["--auth-flow", "password", "--force"])
                .status == 1)
        let current = try await TOTPCode.current()
        let wrong = String(format: "%06d", (Int(current)! + 1) % 1_000_000)
        cli.remember(wrong, as: "a wrong MFA code")
        let wrongCode = try await cli.login("grace", lines: [password], ["--mfa-code", wrong, "--force"])
        #expect(wrongCode.status == 1, "\(wrongCode.stderrText)")
        #expect(cli.recordBytes == before, "refused sign-ins keep the stored session")
        #expect(try await cli.run(["token"]).status == 0)
        cli.expectNoSecretLeaks()
    }

    /// `login --mfa-code` with the current RFC 6238 code; once more with a new code if the first was refused because
    /// its 30-second step ended on the way (a loaded machine takes seconds to sign in).
    private func loginAnsweringWithTheAuthenticator(_ cli: HeadlessCLI, _ username: String, password: String)
        async throws -> ProcessOutput
    {
        var output: ProcessOutput?
        for _ in 0..<2 {
            let code = try await TOTPCode.current()
            cli.remember(code, as: "an MFA code")
            let attempt = try await cli.login(username, lines: [password], ["--mfa-code", code])
            output = attempt
            if attempt.status == 0 || !attempt.stderrText.contains("Code Mismatch") { break }
        }
        return output!
    }

    /// The record as Tests/TestSupport/Scripts/decrypt_vault_record.py opens it (hashlib scrypt, cryptography AES-GCM).
    private func decryptedVaultRecord(_ cli: HeadlessCLI) async throws -> [String: Any] {
        let output = try await BoundedProcess.run(
            "/usr/bin/python3",
            [
                "\(SecretServiceSession.scriptsDirectory)/decrypt_vault_record.py", cli.dataDirectory,
                HeadlessCLI.profile,
            ],
            environment: cli.session.environment.merging(["VAULT_PASSPHRASE": HeadlessCLI.vaultPassphrase]) { $1 })
        guard output.status == 0 else { throw TestFixtureError("decrypt_vault_record.py exited \(output.status)") }
        return (try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])?["record"] as? [String: Any]
            ?? [:]
    }
}
