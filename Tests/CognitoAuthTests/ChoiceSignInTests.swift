import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import CognitoAuth

/// Choice-based sign-in (USER_AUTH) and custom challenges against the sign-in stand-in in front of moto: codes by
/// e-mail and SMS (a wrong one retried in the same session), SELECT_CHALLENGE answered each way, and two custom
/// rounds.
@Suite struct ChoiceSignInTests {
    typealias Fixture = SignInStandInTests.Fixture
    static let password = SignInStandInTests.password

    func fixture() async throws -> Fixture {
        let fixture = try await Fixture.make()
        try await fixture.standIn.addUser(
            "erin", password: Self.password, email: "erin@example.com", phone: "+15555550123")
        return fixture
    }

    func lastCode(_ fixture: Fixture) async throws -> String {
        try #require(try await fixture.standIn.sentCodes().last?.code)
    }

    @Test(arguments: [(FirstFactor.emailOTP, ChallengeKind.emailOTP, "e***@e***"), (.smsOTP, .smsOTP, "+*******0123")])
    func aCodeInsteadOfAPasswordAndAWrongOneIsRetried(factor: FirstFactor, kind: ChallengeKind, destination: String)
        async throws
    {
        let fixture = try await fixture()
        let challenge = try #require(try await fixture.client.signIn(username: "erin", preferring: factor).challenge)
        #expect(challenge.kind == kind)
        #expect(challenge.codeDeliveryDestination == destination)
        let code = try await lastCode(fixture)
        #expect(code.count == (kind == .emailOTP ? 8 : 6))
        await #expect(throws: CognitoError.codeMismatch(message: "Invalid code or auth state for the user.")) {
            try await fixture.client.respond(to: challenge, with: .code(SecretBytes(utf8: "00000000")))
        }
        let tokens = try #require(
            try await fixture.client.respond(to: challenge, with: .code(SecretBytes(utf8: code))).tokens)
        #expect(tokens.identity.username == "erin")
        #expect(!"\(challenge)".contains(code))
    }

    @Test func selectChallengeListsTheChoicesAndEachWorks() async throws {
        let fixture = try await fixture()
        let choices: [FirstFactor] = [
            .password(SecretBytes(utf8: Self.password)), .passwordSRP(SecretBytes(utf8: Self.password)), .emailOTP,
        ]
        for choice in choices {
            let select = try #require(try await fixture.client.signIn(username: "erin", preferring: nil).challenge)
            #expect(select.kind == .selectChallenge)
            #expect(select.availableChallenges == ["PASSWORD", "PASSWORD_SRP", "EMAIL_OTP", "SMS_OTP"])
            var step = try await fixture.client.respond(to: select, with: .firstFactor(choice))
            if case .emailOTP = choice {
                let challenge = try #require(step.challenge)
                step = try await fixture.client.respond(
                    to: challenge, with: .code(SecretBytes(utf8: try await lastCode(fixture))))
            }
            #expect(step.tokens?.identity.username == "erin", "\(choice)")
        }
        // PASSWORD_SRP went to moto as SRP: the password never left the client.
        #expect(try await fixture.standIn.requests().contains("RespondToAuthChallenge PASSWORD_VERIFIER"))
    }

    @Test func aPreferredPasswordFactorIsProvedAtOnceAndAWrongPasswordRefused() async throws {
        let fixture = try await fixture()
        let step = try await fixture.client.signIn(
            username: "erin", preferring: .passwordSRP(SecretBytes(utf8: Self.password)))
        #expect(step.tokens != nil)
        await #expect(throws: CognitoError.self) {
            try await fixture.client.signIn(
                username: "erin", preferring: .password(SecretBytes(utf8: "wrong-Passw0rd!")))
        }
    }

    @Test func customChallengesOfTwoRounds() async throws {
        let fixture = try await fixture()
        try await fixture.standIn.setCustomRounds([(["question": "colour?"], "blue"), (["question": "number?"], "42")])
        let first = try #require(try await fixture.client.signInWithCustomChallenge(username: "erin").challenge)
        #expect(first.kind == .customChallenge && first.parameters["question"] == "colour?")
        let second = try #require(
            try await fixture.client.respond(to: first, with: .customAnswer(SecretBytes(utf8: "blue"))).challenge)
        #expect(second.parameters["question"] == "number?")
        #expect(
            try await fixture.client.respond(to: second, with: .customAnswer(SecretBytes(utf8: "42"))).tokens != nil)

        let again = try #require(try await fixture.client.signInWithCustomChallenge(username: "erin").challenge)
        await #expect(throws: CognitoError.notAuthorized(message: "Incorrect username or password.")) {
            try await fixture.client.respond(to: again, with: .customAnswer(SecretBytes(utf8: "red")))
        }
    }
}
