import Foundation
import TestSupport
import Testing

/// The warm read of a Secret Service item goes over a `plain` session through libdbus, with the calls it needs and
/// no more, as `dbus-monitor` on the private bus sees them; what it reads is what libsecret wrote; a locked
/// collection takes libsecret's way, which tells locked from missing.
@Suite(
    .serialized,
    .enabled(
        if: SecretServiceSession.isSupported && (try? ProcessRunner.which("dbus-monitor")) != nil,
        "needs \(SecretServiceSession.requiredTools), dbus-monitor and /usr/bin/python3"))
struct SecretServicePlainReadTests {
    let binding = ["--pool", "us-east-1_TestPool", "--client", "test-client-id"]

    func probe(_ session: SecretServiceSession, _ arguments: [String], stdin: Data? = nil) async throws -> ProbeOutcome
    {
        try ProbeOutcome.single(
            in: await VaultProbe.run(VaultProbe.path, arguments, stdin: stdin, environment: session.environment))
    }

    /// The Secret Service calls (`member` and arguments' first lines) that `body` makes, in order.
    func secretServiceCalls(_ session: SecretServiceSession, during body: () async throws -> Void) async throws
        -> [SecretServiceCall]
    {
        let monitor = try InteractiveProcess(
            "dbus-monitor", ["--session", "type='method_call',path_namespace='/org/freedesktop/secrets'"],
            environment: session.environment)
        defer { monitor.kill() }
        // dbus-monitor has become a monitor once it has lost the name it got.
        while let line = try await OffPool.run({ monitor.readLine() }), !line.contains("member=NameLost") {}
        try await body()
        var lines: [String] = []
        // The calls of a process that has ended are all on the bus; a short wait after the last catches any extra.
        while true {
            let timeout: TimeInterval = lines.isEmpty ? 10 : 0.5
            guard let line = try await OffPool.run({ monitor.readLine(timeout: timeout) }) else { break }
            lines.append(line)
        }
        return SecretServiceCall.parse(lines)
    }

    @Test func aWarmLoadMakesFiveCallsOverAPlainSessionAndReadsWhatLibsecretWrote() async throws {
        let session = try await OffPool.run { try SecretServiceSession(.gnomeKeyring) }
        let record = VaultProbe.record()
        #expect(try await probe(session, ["save"] + binding, stdin: VaultProbe.json(record)).outcome == "ok")
        var loaded: ProbeOutcome?
        let calls = try await secretServiceCalls(session) { loaded = try await probe(session, ["load"] + binding) }
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
        let calls = try await secretServiceCalls(session) { loaded = try await probe(session, ["load"] + binding) }
        #expect(loaded?.outcome == "locked")
        // The plain read found nothing unlocked and opened no session; libsecret's proxies read the lock state.
        #expect(calls.prefix(2).map(\.member) == ["ReadAlias", "SearchItems"], "\(calls)")
        #expect(!calls.contains { $0.arguments.first == #"string "plain""# }, "\(calls)")
        #expect(calls.contains { $0.member == "GetAll" }, "\(calls)")
    }
}

/// One method call as dbus-monitor prints it: a header line, then its arguments indented.
struct SecretServiceCall: CustomStringConvertible {
    var member: String
    var arguments: [String] = []

    var description: String { "\(member)(\(arguments.joined(separator: ", ")))" }

    static func parse(_ lines: [String]) -> [SecretServiceCall] {
        var calls: [SecretServiceCall] = []
        for line in lines {
            if line.hasPrefix("method call"), let member = line.components(separatedBy: "member=").last {
                calls.append(SecretServiceCall(member: member))
            } else if line.hasPrefix(" "), !calls.isEmpty {
                calls[calls.count - 1].arguments.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return calls
    }
}
