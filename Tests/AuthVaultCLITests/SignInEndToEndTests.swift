import Foundation
import TestSupport
import Testing

/// Headless sign-in as a script or a person on a server does it: the built `authvault` against moto's server,
/// isolated HOME and XDG directories without a session bus (tokens in the encrypted file vault). Every expected
/// token is checked against moto itself (GetUser knows only the access tokens it issued) and decoded with
/// Foundation; every scenario ends with the secret sweep.
@Suite struct SignInEndToEndTests {
    static let password = "Correct-Horse-9!"

    enum Setup: String, CaseIterable, Sendable {
        case srp, srpWithClientSecret, passwordFlow, passwordFlowWithClientSecret

        var withSecret: Bool { self == .srpWithClientSecret || self == .passwordFlowWithClientSecret }
        var loginArguments: [String] {
            self == .passwordFlow || self == .passwordFlowWithClientSecret ? ["--auth-flow", "password"] : []
        }
    }

    @Test(arguments: Setup.allCases)
    func signInOnStandardInputThenTokensStatusAndLogout(setup: Setup) async throws {
        let pool = try await CognitoPool.make(withSecret: setup.withSecret)
        try await pool.createUser("alice", password: Self.password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)

        let login = try await cli.login("alice", lines: [Self.password], setup.loginArguments)
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("Signed in as alice (profile 'default'; tokens in file)."))
        #expect(login.stdout.isEmpty)
        let stored = try #require(try await cli.storedRecord())
        #expect((stored["refreshToken"] as? String)?.isEmpty == false)

        // Bare: the access token moto issued, alone on stdout.
        let bare = try await cli.run(["token"])
        #expect(bare.status == 0, "\(bare.stderrText)")
        let access = bare.stdoutText.trimmingCharacters(in: .newlines)
        let aloneOnStdout = bare.stdoutText == access + "\n"
        let isStored = sameSecret(access, stored["accessToken"] as? String)
        #expect(aloneOnStdout, "one line, the token")
        #expect(isStored, "the token in the vault")
        let owner = try await pool.owner(ofAccessToken: access)
        #expect(owner == "alice", "a token moto issued")
        let accessClaims = TestJWT.claims(of: access)
        let claims = try #require(accessClaims)
        #expect(claims["iss"] as? String == pool.issuer)
        #expect(claims["token_use"] as? String == "access")
        #expect(claims["client_id"] as? String == pool.clientId)
        let accessExpiry = try #require(claims["exp"] as? Int)

        let header = try await cli.run(["token", "--format", "header"])
        #expect(header.status == 0)
        let headerLine = header.stdoutText == "Authorization: Bearer \(access)\n"
        #expect(headerLine, "'Authorization: Bearer' and the access token")

        let json = try await cli.run(["token", "--format", "json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let sameToken = sameSecret(object["token"] as? String, access)
        #expect(sameToken, "the JSON carries the access token")
        #expect(object["tokenType"] as? String == "access")
        #expect(object["profile"] as? String == "default")
        #expect(object["expiresAtUnix"] as? Int == accessExpiry)
        #expect(object["expiresAt"] as? String == Self.rfc3339(accessExpiry))

        let idRun = try await cli.run(["token", "--id"])
        #expect(idRun.status == 0)
        let idToken = idRun.stdoutText.trimmingCharacters(in: .newlines)
        let idIsStored = sameSecret(idToken, stored["idToken"] as? String)
        #expect(idIsStored, "the ID token in the vault")
        let decodedID = TestJWT.claims(of: idToken)
        let idClaims = try #require(decodedID)
        #expect(idClaims["token_use"] as? String == "id")
        #expect(idClaims["aud"] as? String == pool.clientId)
        #expect(idClaims["cognito:username"] as? String == "alice")
        #expect(idClaims["iss"] as? String == pool.issuer)
        let idExpiry = try #require(idClaims["exp"] as? Int)

        let status = try await cli.run(["status"])
        #expect(status.status == 0, "\(status.stderrText)")
        #expect(status.stdoutText.contains("Vault:      file"))
        #expect(status.stdoutText.contains("User:       alice"))
        #expect(status.stdoutText.contains("Access:     valid until \(Self.rfc3339(accessExpiry))"))

        let statusJSON = try await cli.run(["status", "--json"])
        #expect(statusJSON.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: statusJSON.stdout) as? [String: Any])
        #expect(report["user"] as? String == "alice")
        #expect(report["username"] as? String == "alice")
        #expect(report["backend"] as? String == "file")
        #expect(report["usable"] as? Bool == true)
        #expect(report["problem"] == nil)
        #expect(report["accessTokenExpiresAt"] as? String == Self.rfc3339(accessExpiry))
        #expect(report["idTokenExpiresAt"] as? String == Self.rfc3339(idExpiry))
        #expect(report["userPoolId"] as? String == pool.poolId)

        // moto has no RevokeToken (HTTP 500, a server in trouble): the local sign-out stands, the failure is
        // reported, and the refresh token is kept apart from any session to revoke later.
        let logout = try await cli.run(["logout"])
        #expect(logout.status == 5, "\(logout.stderrText)")
        #expect(logout.stderrText.contains("Signed out of profile 'default' on this machine."))
        #expect(logout.stderrText.contains("revoking the refresh token"))
        #expect(
            logout.stderrText.contains("The tokens are gone from this machine; the refresh token is kept, encrypted"))
        let afterLogout = try await cli.storedRecord()
        if setup.withSecret {
            let secretKept = sameSecret(afterLogout?["clientSecret"] as? String, pool.clientSecret)
            #expect(secretKept, "the client secret outlives the session")
        }
        let cleared =
            afterLogout?["accessToken"] == nil && afterLogout?["idToken"] == nil && afterLogout?["refreshToken"] == nil
        #expect(cleared, "no token is left in the session")
        #expect((afterLogout?["pendingRevocationTokens"] as? [String])?.count == 1, "only the refresh token, to revoke")

        let signedOut = try await cli.run(["token"])
        #expect(signedOut.status == 3)
        #expect(signedOut.stdout.isEmpty)
        #expect(signedOut.stderrText.contains("authvault login"))
        #expect(try await cli.run(["status"]).status == 3)
        cli.expectNoSecretLeaks()
    }

    @Test func aWrongPasswordOnThePasswordFlowStoresNothing() async throws {
        let pool = try await CognitoPool.make()
        try await pool.createUser("alice", password: Self.password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)

        let first = try await cli.login("alice", lines: ["Not-The-Password-1!"], ["--auth-flow", "password"])
        #expect(first.status == 1, "\(first.stderrText)")
        #expect(first.stderrText.contains("password is wrong"))
        #expect(!FileManager.default.fileExists(atPath: cli.recordPath), "no record for a failed first sign-in")

        #expect(try await cli.login("alice", lines: [Self.password]).status == 0)
        let token = try await cli.run(["token"]).stdoutText
        let before = try #require(cli.recordBytes)
        let again = try await cli.login("alice", lines: ["Still-Not-It-2!"], ["--auth-flow", "password", "--force"])
        #expect(again.status == 1)
        #expect(cli.recordBytes == before, "a failed sign-in does not touch the stored session")
        let after = try await cli.run(["token"])
        #expect(after.status == 0)
        let sameToken = sameSecret(after.stdoutText, token)
        #expect(sameToken, "the stored session still serves its token")
        cli.expectNoSecretLeaks()
    }

    @Test func withoutATerminalAMissingAnswerNamesTheOption() async throws {
        let pool = try await CognitoPool.make()
        try await pool.createUser("alice", password: Self.password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)

        let noPassword = try await cli.run(["login", "--password", "--username", "alice"])
        #expect(noPassword.status == 2)
        #expect(noPassword.stderrText.contains("--password-stdin"))
        let noUser = try await cli.run(["login", "--password", "--password-stdin"], stdin: Self.password + "\n")
        cli.remember(Self.password, as: "the password")
        #expect(noUser.status == 2)
        #expect(noUser.stderrText.contains("--username"))
        #expect(!FileManager.default.fileExists(atPath: cli.recordPath))
        cli.expectNoSecretLeaks()
    }

    /// An administrator made the user with a temporary password: Cognito asks for a new one (NEW_PASSWORD_REQUIRED).
    @Test func newPasswordRequiredAnsweredFromTheSecondLineOfStandardInput() async throws {
        let pool = try await CognitoPool.make()
        let temporary = "Temporary-Pass-3!"
        let chosen = "Chosen-By-Bob-4!"
        try await pool.createUser("bob", temporaryPassword: temporary)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)

        let unanswered = try await cli.login("bob", lines: [temporary])
        #expect(unanswered.status == 2)
        #expect(unanswered.stderrText.contains("--new-password-stdin"))
        #expect(try await pool.userStatus("bob") == "FORCE_CHANGE_PASSWORD")
        #expect(!FileManager.default.fileExists(atPath: cli.recordPath))

        let changed = try await cli.login("bob", lines: [temporary, chosen], ["--new-password-stdin"])
        #expect(changed.status == 0, "\(changed.stderrText)")
        #expect(changed.stderrText.contains("Signed in as bob"))
        #expect(try await pool.userStatus("bob") == "CONFIRMED")
        let token = try await cli.run(["token"])
        let owner = try await pool.owner(ofAccessToken: token.stdoutText.trimmingCharacters(in: .newlines))
        #expect(owner == "bob", "a token moto issued")

        // moto checks passwords on the password flow: the chosen one is now the password, the temporary one is not.
        #expect(try await cli.login("bob", lines: [chosen], ["--auth-flow", "password", "--force"]).status == 0)
        #expect(try await cli.login("bob", lines: [temporary], ["--auth-flow", "password", "--force"]).status == 1)
        cli.expectNoSecretLeaks()
    }

    @Test func signInAtATerminalAsksForThePasswordWithoutEcho() async throws {
        let pool = try await CognitoPool.make()
        try await pool.createUser("carol", password: Self.password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        cli.remember(Self.password, as: "the password")

        let run = try await cli.runOnTerminal(
            ["login", "--password"],
            answers: [("Username:", "carol"), ("Password for carol:", Self.password)])
        let screen = run.screen.replacingOccurrences(of: Self.password, with: "<password>")
        let echoed = screen != run.screen
        #expect(run.status == 0, "\(screen)")
        #expect(run.answered == 2)
        #expect(screen.contains("Username: carol"), "the user name is echoed")
        #expect(screen.contains("Signed in as carol"))
        #expect(!echoed, "the password is not echoed: \(screen)")
        let token = try await cli.run(["token"])
        let owner = try await pool.owner(ofAccessToken: token.stdoutText.trimmingCharacters(in: .newlines))
        #expect(owner == "carol", "a token moto issued")
        _ = try await cli.storedRecord()
        cli.expectNoSecretLeaks()
    }

    @Test func aRequiredNewPasswordIsAskedTwiceAtATerminal() async throws {
        let pool = try await CognitoPool.make()
        let temporary = "Temporary-Pass-5!"
        let chosen = "Chosen-By-Dave-6!"
        try await pool.createUser("dave", temporaryPassword: temporary)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        cli.remember(temporary, as: "the temporary password")
        cli.remember(chosen, as: "the new password")

        let run = try await cli.runOnTerminal(
            ["login", "--password", "--username", "dave"],
            answers: [
                ("Password for dave:", temporary), ("New password:", chosen), ("Repeat the new password:", chosen),
            ])
        let screen = run.screen.replacingOccurrences(of: temporary, with: "<temporary>").replacingOccurrences(
            of: chosen, with: "<new>")
        let echoed = screen != run.screen
        #expect(run.status == 0, "\(screen)")
        #expect(run.answered == 3)
        #expect(screen.contains("Cognito requires a new password"))
        #expect(!echoed, "no password is echoed: \(screen)")
        #expect(try await pool.userStatus("dave") == "CONFIRMED")
        _ = try await cli.storedRecord()
        cli.expectNoSecretLeaks()
    }

    /// RFC 3339 in UTC, as Foundation formats it (independent of the CLI's own formatting).
    static func rfc3339(_ unixSeconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unixSeconds)))
    }
}
