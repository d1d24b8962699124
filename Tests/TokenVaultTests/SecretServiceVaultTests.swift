import Foundation
import TestSupport
import Testing
import TokenVault

/// SecretServiceVault against a real gnome-keyring-daemon on a private session bus, one vault-probe process per
/// scenario (libsecret keeps one bus connection per process). Serialized: each test starts its own bus and daemon,
/// and the timing bounds are kinder to the two CI cores that way.
@Suite(
    .serialized,
    .enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools) and /usr/bin/python3"))
struct SecretServiceVaultTests {
    let binding = ["--pool", "us-east-1_TestPool", "--client", "test-client-id"]

    func start(_ setup: SecretServiceSession.Setup) async throws -> SecretServiceSession {
        try await OffPool.run { try SecretServiceSession(setup) }
    }

    func probe(_ session: SecretServiceSession, _ arguments: [String], stdin: Data? = nil) async throws -> ProbeOutcome
    {
        try ProbeOutcome.single(in: await run(session, VaultProbe.path, arguments, stdin: stdin))
    }

    func run(
        _ session: SecretServiceSession, _ executable: String, _ arguments: [String],
        stdin: Data? = nil
    ) async throws -> ProcessOutput {
        try await VaultProbe.run(executable, arguments, stdin: stdin, environment: session.environment)
    }

    func lock(_ session: SecretServiceSession) async throws {
        try await OffPool.run { try session.lockDefaultCollection() }
    }

    /// Every save and delete bumps the profile's change stamp (where the CLI keeps the file vault's), and a read does
    /// not: what a running agent watches.
    @Test func savesAndDeletesBumpTheRevision() async throws {
        let session = try await start(.gnomeKeyring)
        let changeStamps = ChangeStamps(dataDirectory: session.environment["XDG_DATA_HOME"]! + "/authvault")
        #expect(changeStamps.stamp(profile: "work") == .absent)
        #expect(
            try await probe(session, ["save"] + binding, stdin: VaultProbe.json(VaultProbe.record())).outcome == "ok")
        let saved = changeStamps.stamp(profile: "work")
        #expect(saved != .absent)
        #expect(try await probe(session, ["load"] + binding).outcome == "ok")
        #expect(changeStamps.stamp(profile: "work") == saved)
        #expect(try await probe(session, ["delete"]).outcome == "ok")
        #expect(changeStamps.stamp(profile: "work") != saved)
    }

    @Test func saveLoadDeleteAndSecretToolSeesTheItem() async throws {
        let session = try await start(.gnomeKeyring)
        let record = VaultProbe.record()
        #expect(try await probe(session, ["save"] + binding, stdin: VaultProbe.json(record)).outcome == "ok")

        let loaded = try await probe(session, ["load"] + binding)
        #expect(loaded.outcome == "ok")
        #expect(VaultProbe.same(loaded.record, record))
        // Matched by pool and client: a profile reconfigured for another pool does not get these tokens.
        #expect(
            try await probe(session, ["load", "--pool", "eu-west-1_Other", "--client", "test-client-id"]).outcome
                == "notFound")
        #expect(try await probe(session, ["list"]).object["profiles"] as? [String] == ["work"])

        // secret-tool, independently of our code: the secret is the record's JSON, under our attributes and label.
        let lookup = try await run(session, "secret-tool", ["lookup", "application", "authvault", "profile", "work"])
        #expect(lookup.status == 0)
        let stored = try #require(try JSONSerialization.jsonObject(with: lookup.stdout) as? [String: Any])
        #expect(stored["accessToken"] as? String == "access-one")
        #expect(stored["refreshToken"] as? String == "refresh-one")
        #expect(stored["profile"] as? String == "work")
        let search = try await run(session, "secret-tool", ["search", "--all", "application", "authvault"])
        let listing = search.stdoutText + search.stderrText
        #expect(listing.contains("label = AuthVault: profile work (alice@example.com)"))
        #expect(listing.contains("attribute.user-pool = us-east-1_TestPool"))
        #expect(listing.contains("attribute.client-id = test-client-id"))
        #expect(listing.contains("schema = org.authvault.Credential"))

        #expect(try await probe(session, ["delete"]).outcome == "ok")
        #expect(try await probe(session, ["delete"]).outcome == "ok")
        #expect(try await probe(session, ["load"] + binding).outcome == "notFound")
        #expect(
            try await run(session, "secret-tool", ["lookup", "application", "authvault", "profile", "work"]).stdout
                .isEmpty)
    }

    @Test func savingAgainReplacesTheItem() async throws {
        let session = try await start(.gnomeKeyring)
        let second = VaultProbe.record(revision: 2, tag: "two")
        _ = try await probe(session, ["save"] + binding, stdin: VaultProbe.json(VaultProbe.record()))
        _ = try await probe(session, ["save"] + binding, stdin: VaultProbe.json(second))
        #expect(VaultProbe.same(try await probe(session, ["load"] + binding).record, second))
        let search = try await run(session, "secret-tool", ["search", "--all", "application", "authvault"])
        #expect((search.stdoutText + search.stderrText).components(separatedBy: "label = ").count - 1 == 1)
    }

    @Test func lockedCollectionIsReportedAsLockedNotMissing() async throws {
        let session = try await start(.gnomeKeyring)
        _ = try await probe(session, ["save"] + binding, stdin: VaultProbe.json(VaultProbe.record()))
        try await lock(session)

        let load = try await probe(session, ["load"] + binding)
        #expect(load.outcome == "locked")
        #expect(load.message.contains("default collection"))
        #expect(try await probe(session, ["status"]).state == "locked")
        #expect(try await probe(session, ["list"]).outcome == "locked")
        let save = try await probe(session, ["save"] + binding, stdin: VaultProbe.json(VaultProbe.record(tag: "new")))
        #expect(save.outcome == "locked")
        // Interactive: the Secret Service's own prompt is tried; with no prompter on this bus it fails fast.
        let prompted = try await probe(session, ["load", "--allow-prompt", "--prompt-timeout-ms", "5000"] + binding)
        #expect(prompted.outcome == "locked")
        #expect(prompted.message.contains("prompt"))
        #expect(prompted.elapsedMilliseconds < 3000)
    }

    @Test func longLivedProcessSeesTheLockChange() async throws {
        let session = try await start(.gnomeKeyring)
        let watcher = try InteractiveProcess(VaultProbe.path, ["status-watch"], environment: session.environment)
        let first = try await OffPool.run { watcher.readLine() }
        #expect(try ProbeOutcome(line: #require(first)).state == "available")
        try await lock(session)
        watcher.writeLine("again")
        let second = try await OffPool.run { watcher.readLine() }
        #expect(try ProbeOutcome(line: #require(second)).state == "locked")
        _ = try await OffPool.run { watcher.finish() }
    }

    @Test func noSessionBusIsUnavailableWithinMilliseconds() async throws {
        let session = try await start(.noBus)
        for operation in ["load", "status"] {
            let started = Date()
            let outcome = try await probe(session, [operation])
            #expect(outcome.outcome == "unavailable" || outcome.state == "unavailable", "\(outcome)")
            #expect(outcome.elapsedMilliseconds < 500)
            #expect(Date().timeIntervalSince(started) < 2)
        }
    }

    @Test func busWithoutSecretServiceIsUnavailableWithinMilliseconds() async throws {
        let session = try await start(.busOnly)
        let outcome = try await probe(session, ["load"])
        #expect(outcome.outcome == "unavailable")
        #expect(outcome.message.contains("org.freedesktop.secrets"))
        #expect(outcome.elapsedMilliseconds < 500)
        #expect(try await probe(session, ["status"]).state == "unavailable")
    }

    @Test func serviceThatNeverAnswersTimesOutWithinTheBound() async throws {
        let session = try await start(.silentOwner)
        for operation in ["load", "save", "status"] {
            let started = Date()
            let outcome = try await probe(
                session, [operation, "--timeout-ms", "1000"], stdin: VaultProbe.json(VaultProbe.record()))
            let wallClock = Date().timeIntervalSince(started)
            #expect(outcome.outcome == "timedOut" || outcome.state == "timedOut", "\(outcome)")
            #expect(outcome.elapsedMilliseconds >= 990)
            #expect(wallClock < 2.5)
        }
    }
}
