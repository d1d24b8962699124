import Foundation
import TestSupport
import Testing

/// Text a server chose reaches the terminal escaped: a Cognito message and a custom challenge's parameters that
/// carry an OSC title change (ESC ] ... BEL), a screen clear (ESC [ 2J), the 8-bit CSI, and a carriage return and
/// newline that would start a line of the server's own, are shown as visible escapes, through the built binary.
@Suite struct ServerTextEndToEndTests {
    static let hostile = "revoked\u{1B}]0;pwned\u{7}\u{1B}[2J\r\nauthvault: signed in again\u{9B}31m"
    static let shown = #"revoked\u{1B}]0;pwned\u{7}\u{1B}[2J\r\nauthvault: signed in again\u{9B}31m"#

    /// No control character but the line feeds the CLI writes itself: no C0 but LF, no DEL, no C1.
    static func expectOnlyTheCLIsOwnControls(
        _ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let controls = text.unicodeScalars.filter { $0 != "\n" && $0.properties.generalCategory == .control }
        #expect(
            controls.isEmpty, "\(what) holds raw \(controls.map { String($0.value, radix: 16) })",
            sourceLocation: sourceLocation)
        #expect(
            !text.split(separator: "\n").contains { $0.hasPrefix("authvault: signed in again") },
            "\(what) has a line of the server's own", sourceLocation: sourceLocation)
    }

    /// Cognito refuses the refresh token with a hostile message: `token` says why, and so does `status` later (the
    /// reason is kept with the ended session).
    @Test func aRefusedRefreshsMessageIsShownEscaped() async throws {
        let profile = try await SignedInProfile.make()
        try await profile.cli.ageTokens(expiringIn: -120)
        try await profile.proxy.inject([.cognitoError("NotAuthorizedException", message: Self.hostile)])
        let token = try await profile.cli.run(["token"])
        #expect(token.status == 3, "\(token.stderrText)")
        #expect(token.stderrText.contains(Self.shown), "\(token.stderrText)")
        Self.expectOnlyTheCLIsOwnControls(token.stderrText, "token's standard error")

        let status = try await profile.cli.run(["status"])
        #expect(status.stdoutText.contains(Self.shown), "\(status.stdoutText)")
        Self.expectOnlyTheCLIsOwnControls(status.stdoutText + status.stderrText, "status's output")
        profile.cli.expectNoSecretLeaks()
    }

    /// The pool's custom challenge puts the hostile text in a parameter's value and name.
    @Test func aCustomChallengesParametersAreShownEscaped() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        _ = try await scenario.addUser("ruth", email: "ruth@example.com")
        let answer = "green-\(UUID().uuidString.prefix(6))"
        account.remember(answer)
        try await scenario.standIn.setCustomRounds([(["question": Self.hostile, "hint\u{1B}[8m": "a colour"], answer)])

        let login = try await account.run(
            ["login", "--username", "ruth", "--auth-flow", "custom", "--answer-stdin"], stdin: answer + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("  question: \(Self.shown)\n"), "\(login.stderrText)")
        #expect(login.stderrText.contains(#"  hint\u{1B}[8m: a colour"#), "\(login.stderrText)")
        Self.expectOnlyTheCLIsOwnControls(login.stderrText, "login's standard error")
        try account.rememberVaultTokens()
        account.expectNoSecretsPrinted()
    }

    /// Device names are any machine's choice, and Cognito lists them to every other: `devices list` and `status`
    /// show them escaped.
    @Test func aDeviceNameIsShownEscaped() async throws {
        let scenario = try await StandInScenario.make()
        let account = scenario.account
        let password = try await scenario.addUser("sage", email: "sage@example.com")
        let login = try await account.login(
            "sage", password: password, extra: ["--device-name", "box\u{1B}]0;pwned\u{7}\r\n"])
        #expect(login.status == 0, "\(login.stderrText)")
        Self.expectOnlyTheCLIsOwnControls(login.stderrText, "login's standard error")
        let listed = try await account.run(["devices", "list"])
        #expect(listed.stdoutText.contains(#"  box\u{1B}]0;pwned\u{7}\r\n  (remembered"#), "\(listed.stdoutText)")
        let status = try await account.run(["status"])
        #expect(
            status.stdoutText.contains(#"Device:     this machine is 'box\u{1B}]0;pwned\u{7}\r\n'"#),
            "\(status.stdoutText)")
        for output in [listed, status] { Self.expectOnlyTheCLIsOwnControls(output.stdoutText, "the device's listing") }
        account.expectNoSecretsPrinted()
    }
}
