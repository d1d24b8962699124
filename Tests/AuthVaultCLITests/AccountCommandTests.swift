import Foundation
import TestSupport
import Testing

/// The account commands of the built binary against moto (through a proxy that checks SECRET_HASH), with and
/// without an app client secret. Every scenario ends by checking that no password, code or token was printed.
@Suite struct AccountCommandTests {
    @Test(arguments: [false, true])
    func signUpConfirmThenSignInAndWhoAmI(withSecret: Bool) async throws {
        let scenario = try await AccountScenario.make(withSecret: withSecret)
        let username = "signup-\(UUID().uuidString.prefix(6).lowercased())"
        let email = "\(username)@example.com"
        let password = AccountScenario.newPassword()
        scenario.remember(password)

        let signUp = try await scenario.run(
            ["signup", "--username", username, "--email", email, "--password-stdin"], stdin: password + "\n")
        #expect(signUp.status == 0, "\(signUp.stderrText)")
        #expect(signUp.stdout.isEmpty)
        // moto masks the auto-verified address as Cognito does: first letter, then ***.
        #expect(signUp.stderrText.contains("s***@e***"), "\(signUp.stderrText)")
        #expect(signUp.stderrText.contains("authvault confirm-signup --username \(username)"))

        let unconfirmed = try await scenario.login(username, password: password)
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.stderrText.contains("not confirmed"), "\(unconfirmed.stderrText)")

        let code = "483920"  // moto accepts any ConfirmSignUp code; the point is that it never shows up in output
        scenario.remember(code)
        let confirmed = try await scenario.run(["confirm-signup", "--username", username, "--code", code])
        #expect(confirmed.status == 0, "\(confirmed.stderrText)")
        let user = try await scenario.moto.call("AdminGetUser", ["UserPoolId": scenario.poolId, "Username": username])
        #expect(user["UserStatus"] as? String == "CONFIRMED")

        let login = try await scenario.login(username, password: password)
        #expect(login.status == 0, "\(login.stderrText)")

        let whoami = try await scenario.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        #expect(whoami.stdoutText.contains("Username:   \(username)"))
        #expect(whoami.stdoutText.contains("E-mail:     \(email)"))
        let json = try await scenario.run(["whoami", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(report["username"] as? String == username)
        #expect((report["attributes"] as? [String: String])?["email"] == email)
        #expect((report["stored"] as? [String: Any])?["email"] as? String == email)
        #expect(report["enabledMFA"] as? [String] == [])
        #expect(json.stderr.isEmpty)

        try await scenario.expectSecretHashesChecked(["SignUp", "ConfirmSignUp", "InitiateAuth"])
        scenario.expectNoSecretsPrinted()
    }

    @Test(arguments: [false, true])
    func forgottenPasswordIsResetWithTheCodeFromMoto(withSecret: Bool) async throws {
        let scenario = try await AccountScenario.make(withSecret: withSecret)
        let oldPassword = AccountScenario.newPassword()
        let newPassword = AccountScenario.newPassword()
        try await scenario.createUser("forgetful", password: oldPassword, email: "forgetful@example.com")
        scenario.remember(newPassword)

        let forgot = try await scenario.run(["forgot-password", "--username", "forgetful"])
        #expect(forgot.status == 0, "\(forgot.stderrText)")
        #expect(forgot.stderrText.contains("f***@e***"), "\(forgot.stderrText)")
        #expect(forgot.stderrText.contains("authvault confirm-forgot-password --username forgetful"))
        // The code moto sent back (in a response header) to the binary's own ForgotPassword call.
        let code = try #require(try await scenario.proxy.forgotPasswordCode(for: "forgetful"))
        scenario.remember(code)

        // moto checks codes of its own form: one digit more can never match.
        let wrong = try await scenario.run(
            ["confirm-forgot-password", "--username", "forgetful", "--code", code + "0", "--new-password-stdin"],
            stdin: newPassword + "\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderrText.contains("ask for a new code"), "\(wrong.stderrText)")

        let reset = try await scenario.run(
            ["confirm-forgot-password", "--username", "forgetful", "--code", code, "--new-password-stdin"],
            stdin: newPassword + "\n")
        #expect(reset.status == 0, "\(reset.stderrText)")

        let withOld = try await scenario.login("forgetful", password: oldPassword)
        #expect(withOld.status == 1)
        let withNew = try await scenario.login("forgetful", password: newPassword)
        #expect(withNew.status == 0, "\(withNew.stderrText)")

        try await scenario.expectSecretHashesChecked(["ForgotPassword", "ConfirmForgotPassword", "InitiateAuth"])
        scenario.expectNoSecretsPrinted()
    }

    @Test func changePasswordNeedsTheCurrentOneAndKeepsTheSession() async throws {
        let scenario = try await AccountScenario.make(withSecret: false)
        let first = AccountScenario.newPassword()
        let second = AccountScenario.newPassword()
        try await scenario.createUser("changer", password: first, email: "changer@example.com")
        scenario.remember(second)

        let notSignedIn = try await scenario.run(
            ["change-password", "--password-stdin", "--new-password-stdin"], stdin: "\(first)\n\(second)\n")
        #expect(notSignedIn.status == 3, "\(notSignedIn.stderrText)")
        #expect(notSignedIn.stderrText.contains("authvault login"))

        #expect(try await scenario.login("changer", password: first).status == 0)
        let wrong = try await scenario.run(
            ["change-password", "--password-stdin", "--new-password-stdin"], stdin: "\(second)\n\(second)\n")
        #expect(wrong.status == 1, "\(wrong.stderrText)")
        let changed = try await scenario.run(
            ["change-password", "--password-stdin", "--new-password-stdin"], stdin: "\(first)\n\(second)\n")
        #expect(changed.status == 0, "\(changed.stderrText)")
        #expect(changed.stderrText.contains("Changed the password of changer@example.com"))
        #expect(try await scenario.run(["whoami"]).status == 0)

        try await scenario.logout()
        #expect(try await scenario.login("changer", password: first).status == 1)
        #expect(try await scenario.login("changer", password: second).status == 0)
        scenario.expectNoSecretsPrinted()
    }

    @Test(arguments: [false, true])
    func authenticatorSetUpThenSignInAsksForItsCode(withSecret: Bool) async throws {
        let scenario = try await AccountScenario.make(withSecret: withSecret)
        let password = AccountScenario.newPassword()
        try await scenario.createUser("totp-user", password: password, email: "totp-user@example.com")
        #expect(try await scenario.login("totp-user", password: password).status == 0)

        #expect(try await scenario.mfaStatus() == .init(preferred: nil, enabled: []))

        // A code that is not the current one: set-up fails and nothing is enabled.
        let current = try await TOTPCode.current()
        let wrongCode = String(current.map { Character(String((Int(String($0))! + 1) % 10)) })
        scenario.remember(wrongCode)
        let rejected = try await scenario.run(["mfa", "setup-totp", "--code", wrongCode])
        #expect(rejected.status == 1, "\(rejected.stderrText)")
        #expect(try await scenario.mfaStatus().enabled == [])

        // The secret and URI are the user's own and shown on stderr; the code is not.
        let code = try await TOTPCode.current()
        scenario.remember(code)
        let setUp =
            withSecret
            ? try await scenario.run(["mfa", "setup-totp", "--code-stdin"], stdin: code + "\n")
            : try await scenario.run(["mfa", "setup-totp", "--code", code, "--authenticator-name", "test phone"])
        #expect(setUp.status == 0, "\(setUp.stderrText)")
        #expect(
            setUp.stderrText.contains(
                "otpauth://totp/AuthVault%20default%3Atotp-user%40example.com?secret=asdfasdfasdf&issuer=AuthVault%20default"
            ),
            "\(setUp.stderrText)")
        #expect(setUp.stderrText.contains("secret: asdfasdfasdf"))
        #expect(setUp.stdout.isEmpty)
        #expect(
            try await scenario.mfaStatus() == .init(preferred: "SOFTWARE_TOKEN_MFA", enabled: ["SOFTWARE_TOKEN_MFA"]))

        try await scenario.logout()
        let noCode = try await scenario.login("totp-user", password: password)
        #expect(noCode.status == 2)
        #expect(noCode.stderrText.contains("--mfa-code"), "\(noCode.stderrText)")
        let signInCode = try await TOTPCode.current()
        scenario.remember(signInCode)
        let withCode = try await scenario.login("totp-user", password: password, extra: ["--mfa-code", signInCode])
        #expect(withCode.status == 0, "\(withCode.stderrText)")

        let disabled = try await scenario.run(["mfa", "disable"])
        #expect(disabled.status == 0, "\(disabled.stderrText)")
        #expect(disabled.stderrText.contains("Disabled authenticator app"))
        #expect(try await scenario.mfaStatus() == .init(preferred: nil, enabled: []))
        try await scenario.logout()
        #expect(try await scenario.login("totp-user", password: password).status == 0)

        // The verified authenticator can be turned on again without a new secret.
        let enabled = try await scenario.run(["mfa", "enable"])
        #expect(enabled.status == 0, "\(enabled.stderrText)")
        #expect(try await scenario.mfaStatus().enabled == ["SOFTWARE_TOKEN_MFA"])

        try await scenario.expectSecretHashesChecked(["InitiateAuth", "RespondToAuthChallenge"])
        scenario.expectNoSecretsPrinted()
    }

    @Test func aMissingOrWrongClientSecretIsRefused() async throws {
        // The proxy's check at work, and proof that the secret the calls use is the one in the vault.
        let scenario = try await AccountScenario.make(withSecret: true)
        let password = AccountScenario.newPassword()
        scenario.remember(password)
        for (stored, refusal) in [("", "no secret hash was sent"), ("not-the-secret", "the secret hash is wrong")] {
            if !stored.isEmpty { scenario.remember(stored) }
            #expect(try await scenario.run(["configure", "--client-secret-stdin"], stdin: stored + "\n").status == 0)
            let output = try await scenario.run(
                ["signup", "--username", "refused", "--password-stdin"], stdin: password + "\n")
            #expect(output.status == 1, "\(output.stderrText)")
            #expect(output.stderrText.contains("proxy: \(refusal)"), "\(output.stderrText)")
            let last = try await scenario.proxy.records().last
            #expect(last?.operation == "SignUp" && last?.refused == refusal)
        }
        scenario.expectNoSecretsPrinted()
    }

    @Test func resendCodeOnMotoFailsCleanly() async throws {
        // moto has no ResendConfirmationCode: the binary must say so plainly, not crash or print the request.
        let scenario = try await AccountScenario.make(withSecret: false)
        let output = try await scenario.run(["resend-code", "--username", "nobody"])
        // moto answers HTTP 500 (not implemented), which for Cognito means "try again later": status 5.
        #expect(output.status == 5, "\(output.stderrText)")
        #expect(output.stderrText.hasPrefix("Error: The Cognito endpoint failed (HTTP 500)"))
        #expect(output.stderrText.split(separator: "\n").count == 1, "\(output.stderrText)")
        #expect(!output.stderrText.contains("<"), "an HTML page leaked into the message: \(output.stderrText)")
        scenario.expectNoSecretsPrinted()
    }

    @Test(arguments: [false, true])
    func resendCodeAgainstTheStandIn(withSecret: Bool) async throws {
        // The stand-in checks the request against the API reference, SecretHash included.
        let scenario = try await AccountScenario.make(withSecret: withSecret)
        let standIn = try await CognitoStandIn.start(
            .init(
                poolId: scenario.poolId, clientId: scenario.clientId, clientSecret: scenario.clientSecret,
                refreshToken: "unused",
                idToken: "unused", accessToken: "unused", jwks: Data(#"{"keys": []}"#.utf8), users: ["pending"]))
        try await scenario.configure(endpoint: standIn.endpoint)

        let sent = try await scenario.run(["resend-code", "--username", "pending"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect(sent.stderrText.contains("Cognito sent a new code to a***@e*** (EMAIL)"))
        #expect(sent.stderrText.contains("authvault confirm-signup --username pending"))
        let unknown = try await scenario.run(["resend-code", "--username", "stranger"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrText.contains("no such user"), "\(unknown.stderrText)")
        #expect(try await standIn.operations() == ["ResendConfirmationCode", "ResendConfirmationCode"])
        scenario.expectNoSecretsPrinted()
    }

    @Test func missingAnswersWithoutATerminalAreUsageErrorsNamingTheFlag() async throws {
        let scenario = try await AccountScenario.make(withSecret: false)
        let password = AccountScenario.newPassword()
        try await scenario.createUser("scripted", password: password, email: "scripted@example.com")
        let cases: [([String], String)] = [
            (["signup", "--username", "someone"], "--password-stdin"),
            (["signup", "--password-stdin"], "--username"),
            (["confirm-signup", "--username", "someone"], "--code"),
            (["forgot-password"], "--username"),
            (["confirm-forgot-password", "--username", "scripted", "--code", "123456"], "--new-password-stdin"),
            (["confirm-forgot-password", "--username", "scripted", "--new-password-stdin"], "--code"),
        ]
        for (arguments, flag) in cases {
            let output = try await scenario.run(arguments)
            #expect(output.status == 2, "\(arguments): \(output.stderrText)")
            #expect(output.stderrText.contains(flag), "\(arguments): \(output.stderrText)")
        }
        let empty = try await scenario.run(["signup", "--username", "someone", "--password-stdin"], stdin: "")
        #expect(empty.status == 2)
        #expect(empty.stderrText.contains("--password-stdin"))

        #expect(try await scenario.login("scripted", password: password).status == 0)
        for (arguments, flag) in [
            (["change-password"], "--password-stdin"),
            (["change-password", "--password-stdin"], "--new-password-stdin"),
            (["mfa", "setup-totp"], "--code"),
        ] {
            let output = try await scenario.run(
                arguments, stdin: arguments.contains("--password-stdin") ? password + "\n" : nil)
            #expect(output.status == 2, "\(arguments): \(output.stderrText)")
            #expect(output.stderrText.contains(flag), "\(arguments): \(output.stderrText)")
        }
        // setup-totp refused before asking Cognito for a secret nobody could confirm.
        #expect(!(try await scenario.proxy.records()).map(\.operation).contains("AssociateSoftwareToken"))
        for arguments in [
            ["mfa", "enable", "--method", "fingerprint"], ["signup", "--attribute", "novalue"],
            ["mfa", "setup-totp", "--code", "1", "--code-stdin"],
        ] {
            #expect(try await scenario.run(arguments).status == 2, "\(arguments)")
        }
        scenario.expectNoSecretsPrinted()
    }

    @Test func statusesWithoutASessionALockedVaultOrANetwork() async throws {
        let scenario = try await AccountScenario.make(withSecret: false)
        for arguments in [
            ["whoami"], ["mfa", "status"], ["mfa", "disable"], ["mfa", "setup-totp", "--code", "123456"],
        ] {
            let output = try await scenario.run(arguments)
            #expect(output.status == 3, "\(arguments): \(output.stderrText)")
            #expect(output.stderrText.contains("authvault login"), "\(arguments): \(output.stderrText)")
        }
        let password = AccountScenario.newPassword()
        try await scenario.createUser("revoked", password: password, email: "revoked@example.com")
        #expect(try await scenario.login("revoked", password: password).status == 0)
        // Signed out everywhere by an administrator: Cognito refuses the access token, so sign in again.
        try await scenario.moto.call("AdminUserGlobalSignOut", ["UserPoolId": scenario.poolId, "Username": "revoked"])
        let refused = try await scenario.run(["whoami"])
        #expect(refused.status == 3, "\(refused.stderrText)")
        #expect(refused.stderrText.contains("authvault login"))

        // No passphrase and no terminal: the vault stays locked.
        let binary = BuiltProducts.executable("authvault")
        let locked = try await OffPool.run { [environment = scenario.directories.environment] in
            try ProcessRunner.run(
                binary, ["whoami"], environment: environment.merging(["AUTHVAULT_KEY_CACHE_TIMEOUT": "0"]) { $1 })
        }
        #expect(locked.status == 4, "\(locked.stderrText)")

        // Nothing listens on the endpoint: network trouble, status 5.
        try await scenario.configure(endpoint: "http://127.0.0.1:9/")
        let unreachable = try await scenario.run(["forgot-password", "--username", "revoked"])
        #expect(unreachable.status == 5, "\(unreachable.stderrText)")
        scenario.expectNoSecretsPrinted()
    }

    @Test func everyAccountCommandHasHelp() async throws {
        let binary = BuiltProducts.executable("authvault")
        let commands = [
            ["signup"], ["confirm-signup"], ["resend-code"], ["forgot-password"], ["confirm-forgot-password"],
            ["change-password"], ["whoami"], ["mfa", "status"], ["mfa", "setup-totp"], ["mfa", "enable"],
            ["mfa", "disable"],
        ]
        for command in commands {
            let output = try await OffPool.run {
                try ProcessRunner.run(binary, command + ["--help"], environment: ["PATH": "/usr/bin:/bin"])
            }
            #expect(output.status == 0)
            #expect(output.stdoutText.hasPrefix("OVERVIEW: "), "\(command)")
            // A discussion paragraph between the overview and the usage line.
            let paragraphs = output.stdoutText.components(separatedBy: "\n\n")
            #expect(
                paragraphs.count > 3 && paragraphs[2].hasPrefix("USAGE: authvault \(command.joined(separator: " "))"),
                "\(command)")
        }
        let group = try await OffPool.run {
            try ProcessRunner.run(binary, ["mfa", "--help"], environment: ["PATH": "/usr/bin:/bin"])
        }
        for name in ["status", "setup-totp", "enable", "disable"] { #expect(group.stdoutText.contains("  \(name) ")) }
    }
}

extension AccountCommandTests {
    /// What people see at a terminal: prompts without echo for passwords and codes.
    @Suite struct AtATerminal {
        @Test func signUpAndConfirmAtATerminal() async throws {
            let scenario = try await AccountScenario.make(withSecret: false)
            let password = AccountScenario.newPassword()
            let signUp = try await scenario.onTerminal(
                ["signup", "--email", "typed@example.com"],
                answers: [
                    ("Username:", "typed"), ("Password for typed:", password), ("Repeat the password:", password),
                ])
            #expect(signUp.status == 0, "\(signUp.screen)")
            #expect(signUp.answered == 3)
            #expect(signUp.screen.contains("Signed up typed"))
            expectNoSecrets(in: signUp.screen, [password], "the screen")

            let confirm = try await scenario.onTerminal(
                ["confirm-signup", "--username", "typed"], answers: [("Confirmation code for typed:", "913377")])
            #expect(confirm.status == 0, "\(confirm.screen)")
            #expect(!confirm.screen.contains("913377"))
            let user = try await scenario.moto.call(
                "AdminGetUser", ["UserPoolId": scenario.poolId, "Username": "typed"])
            #expect(user["UserStatus"] as? String == "CONFIRMED")
        }

        @Test func authenticatorCodeAtATerminalCanBeRetried() async throws {
            let scenario = try await AccountScenario.make(withSecret: false)
            let password = AccountScenario.newPassword()
            try await scenario.createUser("retrier", password: password, email: "retrier@example.com")
            #expect(try await scenario.login("retrier", password: password).status == 0)
            let code = try await TOTPCode.current()
            let wrongCode = code == "000000" ? "111111" : "000000"
            let run = try await scenario.onTerminal(
                ["mfa", "setup-totp"],
                answers: [
                    ("First code from the authenticator app:", wrongCode),
                    ("First code from the authenticator app:", code),
                ])
            #expect(run.status == 0, "\(run.screen)")
            #expect(run.answered == 2)
            #expect(run.screen.contains("That code is not right"))
            #expect(run.screen.contains("secret: asdfasdfasdf"))
            #expect(!run.screen.contains(code) && !run.screen.contains(wrongCode))
            #expect(try await scenario.mfaStatus().enabled == ["SOFTWARE_TOKEN_MFA"])
        }

        @Test func mismatchedNewPasswordsChangeNothing() async throws {
            let scenario = try await AccountScenario.make(withSecret: false)
            let password = AccountScenario.newPassword()
            try await scenario.createUser("typist", password: password, email: "typist@example.com")
            #expect(try await scenario.login("typist", password: password).status == 0)
            let run = try await scenario.onTerminal(
                ["change-password"],
                answers: [
                    ("Current password:", password), ("New password:", "Other-Pass-1"),
                    ("Repeat the password:", "Other-Pass-2"),
                ])
            #expect(run.status == 2, "\(run.screen)")
            #expect(run.screen.contains("differ"))
            expectNoSecrets(in: run.screen, [password, "Other-Pass"], "the screen")
            #expect(!(try await scenario.proxy.records()).map(\.operation).contains("ChangePassword"))
        }
    }
}
