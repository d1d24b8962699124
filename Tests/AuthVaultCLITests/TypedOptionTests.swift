import AuthVaultApp
import CognitoAuth
import Testing

@testable import AuthVaultCLI

@Suite struct TypedOptionTests {
    let parser = ArgumentParser(root: AuthVault.commands)

    @Test func helpShowsTheDeclaredDefault() {
        let help = HelpFormatter.render(.command(LoginCommand.self), path: ["authvault", "login"])
        #expect(help.contains("How long to wait for the browser. (default: 180)"))
        #expect(
            HelpFormatter.render(.command(TokenCommand.self), path: ["authvault", "token"]).contains("(default: bare)"))
    }

    @Test func absentIsTheDefaultAndABadValueNamesWhatWouldDo() throws {
        guard case .run(_, let parsed, _) = try parser.parse(["login"]) else {
            Issue.record("expected a command")
            return
        }
        #expect(try parsed.value(LoginCommand.timeout) == 180)
        #expect(
            throws: UsageError("Invalid value '0' for --timeout: expected a whole number of seconds from 1 to 3600.")
        ) {
            guard case .run(_, let bad, _) = try parser.parse(["login", "--timeout", "0"]) else { return }
            _ = try bad.value(LoginCommand.timeout)
        }
        #expect(throws: UsageError("Invalid value 'xml' for --format: expected bare, header or json.")) {
            guard case .run(_, let bad, _) = try parser.parse(["token", "--format", "xml"]) else { return }
            _ = try bad.value(TokenCommand.format)
        }
    }

    @Test func configureAndMFAHelpShowTheirDefaultsFromTheOptions() {
        let configure = HelpFormatter.render(.command(ConfigureCommand.self), path: ["authvault", "configure"])
        #expect(configure.contains("Where tokens are kept. (default: auto)"))
        #expect(configure.contains("How 'login' signs in without a browser. (default: srp)"))
        #expect(configure.contains("The app client rotates refresh tokens. (default: false)"))
        #expect(configure.contains("post_logout_redirect_uri. (default: cognito)"))
        let enable = HelpFormatter.render(.command(MFAEnableCommand.self), path: ["authvault", "mfa", "enable"])
        #expect(enable.contains("The method to turn on. (default: totp)"))
    }

    @Test func aConfigureSettingIsAValueAResetOrAUsageError() throws {
        func vault(_ arguments: [String]) throws -> ConfiguredValue<VaultChoice>? {
            guard case .run(_, let parsed, _) = try parser.parse(["configure"] + arguments) else { return nil }
            return try parsed.value(ConfigureCommand.vault)
        }
        guard case .set(.file)? = try vault(["--vault", "file"]) else {
            Issue.record("--vault file")
            return
        }
        guard case .reset? = try vault(["--vault", ""]) else {
            Issue.record("--vault ''")
            return
        }
        #expect(try vault(["--client-id", "c"]) == nil)
        #expect(
            throws: UsageError(
                "Invalid value 'plaintext' for --vault: expected auto, secret-service or file, or '' for the default.")
        ) {
            _ = try vault(["--vault", "plaintext"])
        }
    }

    @Test func mfaEnableIsTOTPUnlessAnotherMethodIsNamed() throws {
        func method(_ arguments: [String]) throws -> MFAType? {
            guard case .run(_, let parsed, _) = try parser.parse(["mfa", "enable"] + arguments) else { return nil }
            return try parsed.value(MFAEnableCommand.method)
        }
        #expect(try method([]) == .softwareToken)
        #expect(try method(["--method", "sms"]) == .sms)
        #expect(throws: UsageError("Invalid value 'fingerprint' for --method: expected totp, sms or email.")) {
            _ = try method(["--method", "fingerprint"])
        }
    }
}
