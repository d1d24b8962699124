import Foundation
import TestSupport
import Testing

/// Sign-in without a password or with the pool's own challenges, through the built binary against the sign-in
/// stand-in: e-mail and SMS codes (read from standard input when Cognito has sent them, a wrong one retried with
/// the next line), Cognito's choice answered each way, and custom challenges of two rounds. No password, code or
/// answer is ever printed.
@Suite struct ChoiceLoginTests {
    @Test(arguments: [("email-otp", "o***@e*** (EMAIL)"), ("sms-otp", "+*******0123 (SMS)")])
    func aCodeCognitoSendsSignsInAndAWrongOneIsAskedAgain(flow: String, destination: String) async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        _ = try await scenario.addUser("olive", email: "olive@example.com", phone: "+15550000123")
        let arguments = ["--username", "olive", "--auth-flow", flow]

        let wrongFirst = try await scenario.loginWithSentCode(arguments) { code in [Self.wrong(code), code] }
        #expect(wrongFirst.status == 0, "\(wrongFirst.stderrText)")
        #expect(wrongFirst.stderrText.contains("Cognito sent a code to \(destination)."), "\(wrongFirst.stderrText)")
        #expect(wrongFirst.stderrText.contains("That code is not right; reading the next line of standard input."))
        #expect(wrongFirst.stderrText.contains("Signed in as"))
        let requests = try await scenario.standIn.requests()
        #expect(
            requests.filter {
                $0 == "RespondToAuthChallenge \(flow.uppercased().replacingOccurrences(of: "-", with: "_"))"
            }.count == 2)

        try await account.logout()
        let wrongOnly = try await scenario.loginWithSentCode(arguments) { code in [Self.wrong(code)] }
        #expect(
            wrongOnly.status == 2 && wrongOnly.stderrText.contains("--code-stdin was given but no line is left"),
            "\(wrongOnly.stderrText)")
        let status = try await account.run(["status"])
        #expect(status.status == 3)
        account.expectNoSecretsPrinted()
    }

    /// At a terminal the code is asked for without echo, after saying where it went; a wrong one is asked again.
    @Test func aCodeIsAskedForAtATerminal() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        _ = try await scenario.addUser("rowan", email: "rowan@example.com")
        let code = String(UInt32.random(in: 10_000_000...99_999_999))
        account.remember(code)
        try await scenario.standIn.setNextCode(code)
        let typed = try await account.onTerminal(
            ["login", "--username", "rowan", "--auth-flow", "email-otp"],
            answers: [("Code: ", Self.wrong(code)), ("Code: ", code)])
        #expect(typed.status == 0 && typed.answered == 2, "\(typed.screen)")
        #expect(
            typed.screen.contains("Cognito sent a code to r***@e*** (EMAIL).")
                && typed.screen.contains("That code is not right; try again."),
            "\(typed.screen)")
        #expect(!typed.screen.contains(code) && !typed.screen.contains(Self.wrong(code)), "a code was echoed")
        account.expectNoSecretsPrinted()
    }

    @Test func cognitosChoiceIsAnsweredEachWay() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        let password = try await scenario.addUser("piper", email: "piper@example.com")
        var outputs: [ProcessOutput] = []

        for factor in ["password", "password-srp"] {
            let output = try await account.run(
                ["login", "--username", "piper", "--auth-flow", "choice", "--challenge", factor, "--password-stdin"],
                stdin: password + "\n")
            outputs.append(output)
            #expect(output.status == 0, "\(factor): \(output.stderrText)")
            try account.rememberVaultTokens()
            try await account.logout()
        }
        let byCode = try await scenario.loginWithSentCode(["--username", "piper", "--challenge", "email-otp"]) { [$0] }
        outputs.append(byCode)
        #expect(byCode.status == 0, "\(byCode.stderrText)")
        try await account.logout()

        let notOffered = try await account.run(["login", "--username", "piper", "--challenge", "sms-otp"])
        outputs.append(notOffered)
        #expect(notOffered.status == 2, "\(notOffered.stderrText)")
        #expect(
            notOffered.stderrText.contains(
                "Cognito offers password, password-srp, email-otp to sign in as piper, not sms-otp"),
            "\(notOffered.stderrText)")
        let unasked = try await account.run(["login", "--username", "piper", "--auth-flow", "choice"])
        #expect(
            unasked.status == 2 && unasked.stderrText.contains("pass --challenge password|password-srp|email-otp"),
            "\(unasked.stderrText)")
        #expect(
            try await account.run(["login", "--username", "piper", "--auth-flow", "srp", "--challenge", "password"])
                .status == 2)

        let typed = try await account.onTerminal(
            ["login", "--username", "piper", "--auth-flow", "choice"],
            answers: [
                ("Sign in with (password/password-srp/email-otp): ", "password"), ("Password for piper: ", password),
            ])
        #expect(typed.status == 0 && typed.screen.contains("Signed in as"), "\(typed.screen)")
        expectNoSecrets(in: typed.screen, [password], "the screen")
        #expect(SecretScan.names(of: [password: "password"], in: outputs).isEmpty)
        account.expectNoSecretsPrinted()
    }

    @Test func aCustomChallengeOfTwoRounds() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        _ = try await scenario.addUser("quinn", email: "quinn@example.com")
        let answers = ["blue-\(UUID().uuidString.prefix(6))", "forty-\(UUID().uuidString.prefix(6))"]
        answers.forEach(account.remember)
        try await scenario.standIn.setCustomRounds([
            (["question": "Favourite colour?"], answers[0]),
            (["question": "Which number?", "hint": "a word"], answers[1]),
        ])

        let login = ["login", "--username", "quinn", "--auth-flow", "custom", "--answer-stdin"]
        let done = try await account.run(login, stdin: answers.joined(separator: "\n") + "\n")
        #expect(done.status == 0, "\(done.stderrText)")
        #expect(done.stderrText.contains("Custom challenge 1:\n  question: Favourite colour?\n"), "\(done.stderrText)")
        #expect(
            done.stderrText.contains("Custom challenge 2:\n  hint: a word\n  question: Which number?\n"),
            "\(done.stderrText)")
        #expect(
            try await scenario.standIn.requests().filter { $0 == "RespondToAuthChallenge CUSTOM_CHALLENGE" }.count == 2)
        try account.rememberVaultTokens()
        try await account.logout()

        let wrong = try await account.run(login, stdin: "\(answers[0])\nnot-it\n")
        #expect(
            wrong.status == 1 && wrong.stderrText.contains("Cognito did not accept the answer to custom challenge 2"),
            "\(wrong.stderrText)")
        let short = try await account.run(login, stdin: "\(answers[0])\n")
        #expect(
            short.status == 2 && short.stderrText.contains("--answer-stdin was given but no line is left"),
            "\(short.stderrText)")
        #expect(
            SecretScan.names(of: [answers[0]: "first answer", answers[1]: "second answer"], in: [done, wrong, short])
                .isEmpty)

        // At a terminal each round is asked for without echo.
        let typed = try await account.onTerminal(
            ["login", "--username", "quinn", "--auth-flow", "custom"],
            answers: [("Answer: ", answers[0]), ("Answer: ", answers[1])])
        #expect(
            typed.status == 0 && typed.answered == 2 && typed.screen.contains("Custom challenge 2:"), "\(typed.screen)")
        #expect(!answers.contains { typed.screen.contains($0) }, "an answer was echoed")
        account.expectNoSecretsPrinted()
    }

    /// A helper never signs in: for a profile that signs in with a code, it names the exact command.
    @Test func aHelperNamesTheProfilesSignIn() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        // Without VAULT_ADDR the vault CLI calls its default address, which the profile lists.
        #expect(
            try await account.run(["configure", "--auth-flow", "email-otp", "--helper-host", "127.0.0.1:8200"]).status
                == 0)
        let helper = try await account.run(["vault-token-helper", "get"])
        #expect(helper.status == 3)
        #expect(
            helper.stderrText.contains("Run 'authvault login --profile default --auth-flow email-otp' in a terminal."),
            "\(helper.stderrText)")
    }

    private static func wrong(_ code: String) -> String {
        String(code.reversed()) == code ? code + "1" : String(code.reversed())
    }
}
