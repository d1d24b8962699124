import AuthCrypto
import AuthVaultApp
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// The account use cases in-process against moto: each asks its answers (piped, given or prompted) in order, sends
/// nothing before it has them all, and fails with a typed reason that names no command.
@Suite struct AccountUseCaseTests {
    @Test func signUpConfirmAndChangeThePassword() async throws {
        let pool = try await MotoProfile.make()
        let password = MotoProfile.newPassword()
        let changed = MotoProfile.newPassword()
        var answers = Answers(
            piped: [.newPassword], given: [.username: "newcomer"], input: GivenInput(password + "\n"),
            prompter: NoPrompter())
        let (username, result) = try await pool.application.signUp(
            profile: "work", attributes: ["email": "newcomer@example.com"],
            answers: &answers)
        #expect(username == "newcomer" && !result.userSub.isEmpty && !result.userConfirmed)
        #expect(await pool.userStatus("newcomer") == "UNCONFIRMED")

        // moto accepts any ConfirmSignUp code.
        var confirm = Answers(
            given: [.username: "newcomer", .code: "483920"], input: GivenInput(""), prompter: NoPrompter())
        #expect(try await pool.application.confirmSignUp(profile: "work", answers: &confirm) == "newcomer")
        #expect(await pool.userStatus("newcomer") == "CONFIRMED")

        try await pool.signIn("newcomer", password: password)
        var change = Answers(
            piped: [.password, .newPassword], input: GivenInput("\(password)\n\(changed)\n"), prompter: NoPrompter())
        #expect(try await pool.application.changePassword(profile: "work", answers: &change) == "newcomer@example.com")
        try await pool.signIn("newcomer", password: changed)
    }

    /// Without a terminal and without the answer, the use fails naming the question, and Cognito never hears of it.
    @Test func aMissingAnswerIsTypedAndNothingIsSent() async throws {
        let pool = try await MotoProfile.make()
        var nobody = Answers(input: GivenInput(""), prompter: NoPrompter())
        await #expect(throws: ApplicationError.self) {
            try await pool.application.signUp(profile: "work", attributes: [:], answers: &nobody)
        }
        var noPassword = Answers(given: [.username: "silent"], input: GivenInput(""), prompter: NoPrompter())
        do {
            _ = try await pool.application.signUp(profile: "work", attributes: [:], answers: &noPassword)
            Issue.record("signed up without a password")
        } catch {
            guard case .answer(.unanswered(.newPassword)) = error else { throw error }
            #expect(!error.description.contains("authvault"), "a reason, not a command")
        }
        #expect(await pool.userStatus("silent") == nil)
    }

    /// A new password typed twice differently is not sent; the prompts say what they ask, never the answer.
    @Test func passwordsThatDifferAreNotSent() async throws {
        let pool = try await MotoProfile.make()
        let first = MotoProfile.newPassword()
        let second = MotoProfile.newPassword()
        let person = ScriptedPrompter(["typo", first, second])
        var answers = Answers(input: GivenInput(""), prompter: person)
        do {
            _ = try await pool.application.signUp(profile: "work", attributes: [:], answers: &answers)
            Issue.record("signed up with passwords that differ")
        } catch {
            guard case .answer(.differ(.newPassword)) = error else { throw error }
        }
        #expect(person.prompts.withLock { $0 } == ["Username: ", "Password for typo: ", "Repeat the password: "])
        expectNoSecrets(in: person.prompts.withLock { $0.joined() }, [first, second])
        #expect(await pool.userStatus("typo") == nil)
    }

    /// Piped answers come one line each in the order asked, a line for a question that never came is skipped, a
    /// repeating question takes the next line, and a one-time answer is not read twice.
    @Test func pipedAnswersFollowTheOrderAsked() throws {
        var answers = Answers(
            piped: [.password, .newPassword, .code], repeating: [.code],
            input: GivenInput("pw\n\nnew\nc1\nc2\n"), prompter: NoPrompter())
        #expect(try answers.secret(.password, prompt: "") == SecretBytes(utf8: "pw"))
        // No new password was asked: its line is dropped when the code's question comes.
        #expect(try answers.secret(.code, prompt: "") == SecretBytes(utf8: "c1"))
        #expect(try answers.secret(.code, prompt: "") == SecretBytes(utf8: "c2"))
        #expect(throws: AnswerError.noLineLeft(.code)) { try answers.secret(.code, prompt: "") }
        #expect(throws: AnswerError.alreadyUsed(.password)) { try answers.secret(.password, prompt: "") }
        #expect(try answers.pipedLine(.customAnswer) == nil, "not piped: asked instead")
        #expect(throws: AnswerError.unanswered(.customAnswer)) { try answers.secret(.customAnswer, prompt: "") }
        let empty = Answers(given: [.username: ""], input: GivenInput(""), prompter: NoPrompter())
        #expect(!empty.isGiven(.username), "an empty value is no answer")
    }

    @Test func codesGoWhereCognitoSaysAndAPasswordResetTakesTheCode() async throws {
        let pool = try await MotoProfile.make()
        let password = MotoProfile.newPassword()
        try await pool.createUser("forgetful", password: password)
        let answers = Answers(given: [.username: "forgetful"], input: GivenInput(""), prompter: NoPrompter())
        let (username, delivery) = try await pool.application.requestCode(
            .passwordReset, profile: "work", answers: answers)
        #expect(username == "forgetful")
        #expect(delivery?.destination?.hasPrefix("f***@") == true)
        // The code given and no new password to go with it: nothing is sent, the old password still works.
        var reset = Answers(
            given: [.username: "forgetful", .code: "123456"], input: GivenInput(""), prompter: NoPrompter())
        do {
            _ = try await pool.application.confirmForgotPassword(profile: "work", answers: &reset)
            Issue.record("a password was reset without a new one")
        } catch {
            guard case .answer(.unanswered(.newPassword)) = error else { throw error }
        }
        try await pool.signIn("forgetful", password: password)
    }
}
