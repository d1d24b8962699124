import Foundation
import TestSupport
import Testing

/// Fault matrix rows on a session kept in the Secret Service (gnome-keyring on the test's own bus): a locked
/// collection, a Secret Service that takes calls and answers none, and the bus gone in the middle of a call. Each
/// fails in bounded time saying what is wrong with the Secret Service (exit 4 for a locked one, 1 otherwise), and
/// the session is there once the keyring is back.
@Suite(.serialized, .enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
struct SecretServiceFaultTests {
    @Test func aLockedCollection() async throws {
        let profile = try await SignedInProfile.make(setup: .gnomeKeyring)
        let inKeyring = try await Self.inTheKeyring(profile)
        try await OffPool.run { try profile.cli.session.lockDefaultCollection() }

        let faulted = try await profile.cli.run(["token"])
        try await OffPool.run { try profile.cli.session.unlockDefaultCollection() }
        let facts: [FaultFact] = [
            ("session in the keyring", inKeyring),
            ("token exits 4 saying locked", faulted.status == 4 && faulted.stderrText.contains("locked")),
            ("token works once unlocked", try await FileAndKeyFaultTests.givesAMotoToken(profile)),
        ]
        try await FileAndKeyFaultTests.record("locked collection", facts, profile)
    }

    /// gnome-keyring stopped (SIGSTOP): calls reach it and are never answered.
    @Test func aHungSecretService() async throws {
        let profile = try await SignedInProfile.make(setup: .gnomeKeyring)
        let inKeyring = try await Self.inTheKeyring(profile)
        profile.cli.session.suspendSecretService(true)

        let started = Date()
        let faulted = try await profile.cli.run(["token"])
        let waited = Date().timeIntervalSince(started)
        profile.cli.session.suspendSecretService(false)
        let facts: [FaultFact] = [
            ("session in the keyring", inKeyring),
            (
                "token exits 1 saying it did not answer",
                faulted.status == 1 && faulted.stderrText.contains("did not answer")
            ),
            ("within 10 s", waited < 10),
            ("token works once it answers", try await FileAndKeyFaultTests.givesAMotoToken(profile)),
        ]
        try await FileAndKeyFaultTests.record("hung Secret Service", facts, profile)
    }

    /// `login` against the stopped keyring (as under load, when its read timed out): it reads the vault again, and
    /// says that the Secret Service did not answer and what to do, not that another sign-in is in progress, and at a
    /// terminal before asking for the password; once the keyring answers, `login` works.
    @Test func aLoginOnAHungSecretService() async throws {
        let profile = try await SignedInProfile.make(setup: .gnomeKeyring)
        let inKeyring = try await Self.inTheKeyring(profile)
        profile.cli.session.suspendSecretService(true)

        let started = Date()
        let faulted = try await profile.cli.login(
            SignedInProfile.username, lines: [SignedInProfile.password],
            wrapper: ["env", "AUTHVAULT_SECRET_SERVICE_TIMEOUT=1"])
        let waited = Date().timeIntervalSince(started)
        // At a terminal: said before the password is asked.
        let atTerminal = try await profile.cli.runOnTerminal(
            ["login", "--username", SignedInProfile.username], answers: [],
            extraEnvironment: ["AUTHVAULT_SECRET_SERVICE_TIMEOUT": "1"])
        profile.cli.session.suspendSecretService(false)
        let said = faulted.stderrText
        let login = try await profile.cli.login(SignedInProfile.username, lines: [SignedInProfile.password])
        let facts: [FaultFact] = [
            ("session in the keyring", inKeyring),
            (
                "login exits 1 saying it did not answer and what to do",
                faulted.status == 1 && said.contains("The Secret Service did not answer within 1.0 s")
                    && said.contains("Try again once it answers")
            ),
            ("not another sign-in in progress", !said.contains("in progress")),
            (
                "at a terminal, said before the password is asked",
                atTerminal.status == 1 && atTerminal.screen.contains("did not answer")
                    && !atTerminal.screen.contains("Password for")
            ),
            ("within 10 s", waited < 10),
            ("login works once it answers", login.status == 0),
            ("token works once it answers", try await FileAndKeyFaultTests.givesAMotoToken(profile)),
        ]
        try await FileAndKeyFaultTests.record("login on a hung Secret Service", facts, profile)
    }

    /// The bus daemon killed while `token` waits for the (stopped) keyring's answer: the call is cut, `token` ends
    /// at once with the vault's reason, and with the bus and keyring back the session is as it was.
    @Test func dbusGoneInTheMiddleOfACall() async throws {
        let profile = try await SignedInProfile.make(setup: .gnomeKeyring)
        let session = profile.cli.session
        let inKeyring = try await Self.inTheKeyring(profile)
        session.suspendSecretService(true)

        async let faulted = profile.cli.run(["token"])
        try await Task.sleep(for: .milliseconds(500))
        let cut = Date()
        session.killBus()
        let output = try await faulted
        let afterCut = Date().timeIntervalSince(cut)
        try await OffPool.run { try session.restart() }
        let facts: [FaultFact] = [
            ("session in the keyring", inKeyring),
            // "The connection is closed" when the cut lands in the call, as it does after 0.5 s.
            (
                "token exits 1 naming the Secret Service",
                output.status == 1 && output.stderrText.contains("Secret Service")
            ),
            ("within 5 s of the cut", afterCut < 5),
            ("token works on a new bus", try await FileAndKeyFaultTests.givesAMotoToken(profile)),
        ]
        try await FileAndKeyFaultTests.record("D-Bus gone in the middle of a call", facts, profile)
    }

    /// `configure` chose the Secret Service (no vault file was written) and the session gives a token.
    static func inTheKeyring(_ profile: SignedInProfile) async throws -> Bool {
        let works = try await FileAndKeyFaultTests.givesAMotoToken(profile)
        return works && profile.cli.recordBytes == nil
    }
}
