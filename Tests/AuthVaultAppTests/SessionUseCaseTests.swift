import AuthCrypto
import AuthVaultApp
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// The signed-in user's use cases in-process against moto: signing in with the answers given, the authenticator
/// set-up and MFA preferences, devices, the user's description and the session's status.
@Suite struct SessionUseCaseTests {
    @Test func theStatusFollowsTheSessionAndNamesNoCommand() async throws {
        let pool = try await MotoProfile.make()
        let before = try await pool.application.profileStatus(named: "work")
        #expect(before.state == .signedOut && !before.usable && before.requiresSignIn)
        guard case .notSignedIn? = before.problem else {
            throw TestFixtureError("expected not signed in, got \(String(describing: before.problem))")
        }

        try await pool.createUser("status-user", password: "Status-pass-1!")
        try await pool.signIn("status-user", password: "Status-pass-1!")
        let after = try await pool.application.profileStatus(named: "work")
        #expect(after.state == .signedIn && after.usable && after.problem == nil)
        let report = StatusReport(after, problem: nil)
        #expect(
            report.user == "status-user@example.com" && report.backend == "file" && report.accessTokenExpiresAt != nil)

        let overview = try await pool.application.vaultOverview(profile: "work")
        #expect(overview.profiles.map(\.name) == ["work"] && overview.profiles.first?.stored == true)

        guard case .user(let user) = try await pool.application.describeIdentity(profile: "work") else {
            Issue.record("a user profile is described as its user")
            return
        }
        #expect(user.username == "status-user" && user.source == "user-pool-api" && user.enabledMFA == [])
    }

    /// The authenticator is set up with its first code; a wrong code given by a script fails at once, and without a
    /// code nor a terminal nothing is asked of Cognito and no secret is shown.
    @Test func anAuthenticatorIsSetUpThenTurnedOffAndOn() async throws {
        let pool = try await MotoProfile.make(variables: [:])
        try await pool.createUser("totp-user", password: "Totp-pass-1!")
        try await pool.signIn("totp-user", password: "Totp-pass-1!")
        let shown = Locked(0)

        var nobody = Answers(input: GivenInput(""), prompter: NoPrompter())
        do {
            try await pool.application.setUpAuthenticator(
                profile: "work", authenticatorName: "phone", answers: &nobody,
                show: { _, _ in shown.withLock { $0 += 1 } }, wrongCode: {})
            Issue.record("set up without a code")
        } catch {
            guard case .answer(.unanswered(.code)) = error else { throw error }
        }
        #expect(shown.withLock { $0 } == 0, "no secret made, none shown")

        let current = try await TOTPCode.current()
        let wrong = String(current.map { Character(String((Int(String($0))! + 1) % 10)) })
        var wrongAnswers = Answers(given: [.code: wrong], input: GivenInput(""), prompter: NoPrompter())
        await #expect(throws: ApplicationError.self) {
            try await pool.application.setUpAuthenticator(
                profile: "work", authenticatorName: "phone", answers: &wrongAnswers,
                show: { _, _ in }, wrongCode: { Issue.record("a given code is not asked again") })
        }
        #expect(try await pool.application.mfaStatus(profile: "work").enabledMFA == [])

        let accounts = Locked<[String]>([])
        var right = Answers(
            piped: [.code], input: GivenInput(try await TOTPCode.current() + "\n"), prompter: NoPrompter())
        try await pool.application.setUpAuthenticator(
            profile: "work", authenticatorName: "phone", answers: &right,
            show: { _, account in accounts.withLock { $0.append(account) } }, wrongCode: {})
        #expect(accounts.withLock { $0 } == ["totp-user@example.com"])
        let user = try await pool.application.mfaStatus(profile: "work")
        #expect(user.preferredMFA == .softwareToken && user.enabledMFA == [.softwareToken])

        let disabled = Locked<[MFAType]>([])
        #expect(
            try await pool.application.disableMFA(nil, profile: "work") { type in disabled.withLock { $0.append(type) }
            } == [.softwareToken])
        #expect(disabled.withLock { $0 } == [.softwareToken])
        #expect(try await pool.application.mfaStatus(profile: "work").enabledMFA == [])
        #expect(try await pool.application.disableMFA(nil, profile: "work").isEmpty, "nothing left to turn off")
        try await pool.application.enableMFA(.softwareToken, profile: "work")
        #expect(try await pool.application.mfaStatus(profile: "work").enabledMFA == [.softwareToken])
    }

    /// Cognito asks for a new password: piped, it signs in; with none and nobody to ask, the reason is typed.
    @Test func aRequiredNewPasswordIsAnsweredOrTyped() async throws {
        let pool = try await MotoProfile.make()
        let temporary = "Temp-pass-1!"
        let chosen = MotoProfile.newPassword()
        try await pool.createUser("fresh", password: temporary, permanent: false)
        do {
            try await pool.signIn("fresh", password: temporary)
            Issue.record("signed in without a new password")
        } catch {
            guard case .signIn(.newPasswordRequired)? = error as? ApplicationError else { throw error }
        }
        let summary = try await pool.signIn("fresh", password: temporary, newPassword: chosen)
        #expect(summary.user == "fresh@example.com")
        #expect(await pool.userStatus("fresh") == "CONFIRMED")
    }

    /// Forgetting "this machine" when it is no remembered device fails before anything is sent, typed.
    @Test func forgettingThisMachineNeedsARememberedDevice() async throws {
        let pool = try await MotoProfile.make()
        do {
            _ = try await pool.application.forgetDevice(nil, profile: "work")
            Issue.record("forgot a device that is not there")
        } catch {
            guard case .notARememberedDevice("work") = error else { throw error }
        }
    }

    /// A browser logout for a profile with no Hosted UI is refused before its tokens go.
    @Test func aSignOutThatCannotBeDoneChangesNothing() async throws {
        let pool = try await MotoProfile.make()
        try await pool.createUser("leaver", password: "Leave-pass-1!")
        try await pool.signIn("leaver", password: "Leave-pass-1!")
        do {
            _ = try await pool.application.signOut(profile: "work", everywhere: false, logoutPage: true)
            Issue.record("signed out with no logout page")
        } catch {
            guard case .noLogoutPage = error else { throw error }
        }
        #expect(try await pool.application.profileStatus(named: "work").usable, "nothing was changed")
        // The local sign-out stands whatever moto makes of the revocation.
        let signedOut = try await pool.application.signOut(profile: "work", everywhere: false, logoutPage: false)
        #expect(signedOut.profile == "work" && signedOut.logoutPage == nil && !signedOut.atOtherProvider)
        #expect(try await pool.application.profileStatus(named: "work").state == .signedOut)
    }
}
