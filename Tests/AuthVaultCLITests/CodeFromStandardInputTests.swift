import Foundation
import TestSupport
import Testing

/// One-time codes piped in on standard input (`--code-stdin`, `--mfa-code-stdin`), never on the command line,
/// against moto: each command that takes a code, lines in the order the questions come, each read only when its
/// question comes. No password, code or token is ever printed.
@Suite struct CodeFromStandardInputTests {
    @Test func confirmationAndResetCodesFromStandardInput() async throws {
        let scenario = try await AccountScenario.make(withSecret: false)
        let password = AccountScenario.newPassword()
        let newPassword = AccountScenario.newPassword()
        scenario.remember(password)
        scenario.remember(newPassword)

        let signUp = try await scenario.run(
            ["signup", "--username", "piped", "--email", "piped@example.com", "--password-stdin"],
            stdin: password + "\n")
        #expect(signUp.status == 0, "\(signUp.stderrText)")
        let confirmationCode = "552211"  // moto takes any ConfirmSignUp code
        scenario.remember(confirmationCode)
        let confirmed = try await scenario.run(
            ["confirm-signup", "--username", "piped", "--code-stdin"], stdin: confirmationCode + "\n")
        #expect(confirmed.status == 0, "\(confirmed.stderrText)")
        let user = try await scenario.moto.call("AdminGetUser", ["UserPoolId": scenario.poolId, "Username": "piped"])
        #expect(user["UserStatus"] as? String == "CONFIRMED")

        #expect(try await scenario.run(["forgot-password", "--username", "piped"]).status == 0)
        let code = try #require(try await scenario.proxy.forgotPasswordCode(for: "piped"))
        scenario.remember(code)
        let reset = ["confirm-forgot-password", "--username", "piped", "--code-stdin", "--new-password-stdin"]
        // The code is the first line: a wrong one there is what Cognito refuses.
        let wrong = try await scenario.run(reset, stdin: "\(code)0\n\(newPassword)\n")
        #expect(wrong.status == 1 && wrong.stderrText.contains("ask for a new code"), "\(wrong.stderrText)")
        let done = try await scenario.run(reset, stdin: "\(code)\n\(newPassword)\n")
        #expect(done.status == 0, "\(done.stderrText)")
        #expect(try await scenario.login("piped", password: newPassword).status == 0)

        for (arguments, flag) in [
            (["confirm-signup", "--username", "piped", "--code-stdin"], "--code-stdin"),
            (reset, "--new-password-stdin"),
        ] {
            let missing = try await scenario.run(arguments, stdin: arguments == reset ? "123456\n" : "")
            #expect(
                missing.status == 2 && missing.stderrText.contains("\(flag) was given but no line is left"),
                "\(missing.stderrText)")
        }
        for arguments in [
            ["confirm-signup", "--code", "1", "--code-stdin"],
            ["login", "--password", "--mfa-code", "1", "--mfa-code-stdin"],
        ] {
            #expect(try await scenario.run(arguments).status == 2, "\(arguments)")
        }
        scenario.expectNoSecretsPrinted()
    }

    /// A pool that requires an authenticator and a user with a temporary password: the first sign-in takes the
    /// password and the new one from the first two lines, then sets up the authenticator (MFA_SETUP), the script
    /// writing the code on the same open standard input only once the secret is on standard error. The next
    /// sign-in takes its code from the third line, the new-password line that Cognito no longer asks for skipped.
    @Test func loginTakesItsMFACodeFromStandardInputWhenItIsAsked() async throws {
        let scenario = try await AccountScenario.make(withSecret: false)
        try await scenario.moto.call(
            "SetUserPoolMfaConfig",
            [
                "UserPoolId": scenario.poolId, "MfaConfiguration": "ON",
                "SoftwareTokenMfaConfiguration": ["Enabled": true],
            ])
        let temporary = AccountScenario.newPassword()
        let password = AccountScenario.newPassword()
        scenario.remember(temporary)
        scenario.remember(password)
        try await scenario.moto.call(
            "AdminCreateUser",
            [
                "UserPoolId": scenario.poolId, "Username": "second-factor", "TemporaryPassword": temporary,
                "MessageAction": "SUPPRESS",
                "UserAttributes": [["Name": "email", "Value": "second-factor@example.com"]],
            ])
        let scratch = try TemporaryDirectory(prefix: "authvault-mfa-stdin")
        let passwordFile = scratch.appending("passwords")
        let stderrFile = scratch.appending("stderr")
        let codeFile = scratch.appending("code")
        try Data("\(temporary)\n\(password)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))

        let script = """
            { cat "$PASSWORD_FILE"
              tries=0
              until grep -q 'secret: ' "$STDERR_FILE" || [ $tries -ge 300 ]; do sleep 0.1; tries=$((tries + 1)); done
              "$PYTHON" "$TOTP" \(TOTPCode.motoSecret) "$(date +%s)" | tee "$CODE_FILE"
            } | "$AUTHVAULT" login --password --username second-factor --auth-flow password \\
                --password-stdin --new-password-stdin --mfa-code-stdin \\
                2> "$STDERR_FILE"
            """
        let environment = scenario.environment.merging([
            "PASSWORD_FILE": passwordFile, "STDERR_FILE": stderrFile, "CODE_FILE": codeFile,
            "TOTP": ScriptServer.scriptPath("totp.py"), "PYTHON": PeerPython.path,
            "AUTHVAULT": BuiltProducts.executable("authvault"),
        ]) { $1 }
        try await Self.awayFromAStepBoundary()
        let setUp = try await OffPool.run {
            try ProcessRunner.run("/bin/sh", ["-c", script], environment: environment, timeout: 60)
        }
        let setUpStderr = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
        if let code = try? String(contentsOfFile: codeFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines), !code.isEmpty
        {
            scenario.remember(code)
        }
        #expect(setUp.status == 0, "\(setUpStderr)")
        #expect(setUpStderr.contains("Cognito requires an authenticator app"), "\(setUpStderr)")
        #expect(setUpStderr.contains("Signed in as"), "\(setUpStderr)")
        try scenario.rememberVaultTokens()

        try await scenario.logout()
        let code = try await TOTPCode.current()
        scenario.remember(code)
        let again = try await scenario.run(
            [
                "login", "--password", "--username", "second-factor", "--auth-flow", "password",
                "--password-stdin", "--new-password-stdin", "--mfa-code-stdin",
            ],
            stdin: "\(password)\nNever-Asked-1!\n\(code)\n")
        #expect(again.status == 0, "\(again.stderrText)")
        try scenario.rememberVaultTokens()
        scenario.expectNoSecretsPrinted()
        let leaked = [temporary, password, code].contains { setUpStderr.contains($0) }
        #expect(!leaked, "a password or code on the standard error of the set-up")
    }

    /// Waits out the last seconds of a 30-second TOTP step, so that a code computed now is still current when moto checks it.
    static func awayFromAStepBoundary() async throws {
        let intoStep = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 30)
        if intoStep > 20 { try await Task.sleep(for: .seconds(30 - intoStep + 0.2)) }
    }
}
