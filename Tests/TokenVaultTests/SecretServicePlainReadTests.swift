import Foundation
import TestSupport
import Testing

/// The warm read of a Secret Service item goes over a `plain` session through libdbus, with the calls it needs and
/// no more, as `dbus-monitor` on the private bus sees them; what it reads is what libsecret wrote; a locked
/// collection takes libsecret's way, which tells locked from missing.
@Suite(
    .serialized,
    .enabled(
        if: SecretServiceSession.canMonitor,
        "needs \(SecretServiceSession.requiredTools), dbus-monitor and /usr/bin/python3"))
struct SecretServicePlainReadTests {
    let binding = ["--pool", "us-east-1_TestPool", "--client", "test-client-id"]

    func probe(_ session: SecretServiceSession, _ arguments: [String], stdin: Data? = nil) async throws -> ProbeOutcome
    {
        try ProbeOutcome.single(
            in: await VaultProbe.run(VaultProbe.path, arguments, stdin: stdin, environment: session.environment))
    }

    @Test func aWarmLoadMakesFiveCallsOverAPlainSessionAndReadsWhatLibsecretWrote() async throws {
        let session = try await OffPool.run { try SecretServiceSession(.gnomeKeyring) }
        let record = VaultProbe.record()
        #expect(try await probe(session, ["save"] + binding, stdin: VaultProbe.json(record)).outcome == "ok")
        var loaded: ProbeOutcome?
        let calls = try await session.secretServiceCalls { loaded = try await probe(session, ["load"] + binding) }
        #expect(loaded?.outcome == "ok")
        #expect(VaultProbe.same(loaded?.record, record))
        #expect(calls.map(\.member) == ["ReadAlias", "SearchItems", "OpenSession", "GetSecrets", "Close"], "\(calls)")
        #expect(calls.first { $0.member == "OpenSession" }?.arguments.first == #"string "plain""#, "\(calls)")
    }

    @Test func aLockedCollectionTakesLibsecretsWay() async throws {
        let session = try await OffPool.run { try SecretServiceSession(.gnomeKeyring) }
        #expect(
            try await probe(session, ["save"] + binding, stdin: VaultProbe.json(VaultProbe.record())).outcome == "ok")
        try await OffPool.run { try session.lockDefaultCollection() }
        var loaded: ProbeOutcome?
        let calls = try await session.secretServiceCalls { loaded = try await probe(session, ["load"] + binding) }
        #expect(loaded?.outcome == "locked")
        // The plain read found nothing unlocked and opened no session; libsecret's proxies read the lock state.
        #expect(calls.prefix(2).map(\.member) == ["ReadAlias", "SearchItems"], "\(calls)")
        #expect(!calls.contains { $0.arguments.first == #"string "plain""# }, "\(calls)")
        #expect(calls.contains { $0.member == "GetAll" }, "\(calls)")
    }
}
