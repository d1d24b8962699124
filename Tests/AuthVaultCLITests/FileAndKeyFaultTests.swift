import Foundation
import TestSupport
import Testing

/// Fault matrix rows around one signed-in session (moto behind the fault proxy): the signing keys out of reach, a
/// configuration or vault file cut short by another program's crash, a full disk while a refresh is written, and a
/// clock minutes off. Each ends with the session giving a token moto issued, without a new login.
@Suite struct FileAndKeyFaultTests {
    /// The refresh gets new tokens but cannot check them: it reports the network, keeps the session, and once the
    /// JWKS answers again the next `token` refreshes.
    @Test func jwksUnreachableDuringARefresh() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        try await cli.ageTokens(expiringIn: -120)
        let before = try #require(cli.recordBytes)
        let closedPort = try await OffPool.run { FreeLoopbackPorts.run(of: 1)[0] }
        #expect(try await cli.run(["configure", "--jwks-url", "http://127.0.0.1:\(closedPort)/jwks.json"]).status == 0)

        let faulted = try await cli.run(["token"])
        #expect(try await cli.run(["configure", "--jwks-url", profile.pool.jwksURL]).status == 0)
        let facts: [FaultFact] = [
            ("token exits 5", faulted.status == 5), ("vault untouched", cli.recordBytes == before),
            ("next token refreshes", try await Self.givesAMotoToken(profile)),
        ]
        try await Self.record("JWKS unreachable during a refresh", facts, profile)
    }

    /// An editor (or another tool) crashed while writing config.json and left half of it: AuthVault says the file
    /// is broken and touches nothing; with the file put back the session is there as before.
    @Test func aConfigFileTruncatedByAnotherProgram() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let config = try #require(FileManager.default.contents(atPath: cli.configPath))
        let record = try #require(cli.recordBytes)
        try config.prefix(config.count / 2).write(to: URL(fileURLWithPath: cli.configPath))

        let faulted = try await cli.run(["token"])
        let untouched =
            FileManager.default.contents(atPath: cli.configPath) == config.prefix(config.count / 2)
            && cli.recordBytes == record
        try config.write(to: URL(fileURLWithPath: cli.configPath))
        let facts: [FaultFact] = [
            ("token exits 1 naming config.json", faulted.status == 1 && faulted.stderrText.contains("config.json")),
            ("files untouched", untouched),
            ("token works once the file is back", try await Self.givesAMotoToken(profile)),
        ]
        try await Self.record("config file truncated by another program's crash", facts, profile)
    }

    /// The same for the vault's record of the session: reported as damaged, left for a restore, never overwritten.
    @Test func aVaultFileTruncatedByAnotherProgram() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let record = try #require(cli.recordBytes)
        let damaged = record.prefix(record.count / 2)
        try damaged.write(to: URL(fileURLWithPath: cli.recordPath))

        let faulted = try await cli.run(["token"])
        let status = try await cli.run(["status"])
        let untouched = cli.recordBytes == damaged
        try record.write(to: URL(fileURLWithPath: cli.recordPath))
        let facts: [FaultFact] = [
            ("token fails saying damaged", faulted.status != 0 && faulted.stderrText.contains("damaged")),
            ("status does not crash", status.status < 128), ("file left for a restore", untouched),
            ("token works once restored", try await Self.givesAMotoToken(profile)),
        ]
        try await Self.record("vault file truncated by another program's crash", facts, profile)
    }

    /// The vault's directory on a small tmpfs filled up before a refresh: the refresh cannot be written, the old
    /// record stays whole, and with space again the next `token` refreshes (no rotation: the refresh token stays
    /// good). Mounting needs root, as CI has.
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root: the full-disk row runs in CI (as root)"))
    func aFullDiskDuringARefresh() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        try await cli.ageTokens(expiringIn: -120)
        let disk = try SmallDisk(holding: cli.dataDirectory)
        defer { disk.unmount() }
        let before = try #require(cli.recordBytes)
        try disk.fill()

        let faulted = try await cli.run(["token"])
        let untouched = cli.recordBytes == before
        try disk.free()
        let facts: [FaultFact] = [
            ("token fails, not a sign-in", faulted.status != 0 && faulted.status != 3), ("old record whole", untouched),
            ("next token refreshes", try await Self.givesAMotoToken(profile)),
        ]
        try await Self.record("full disk during a refresh", facts, profile)
    }

    /// The machine's clock minutes off (libfaketime, both ways): sign-in and `token` work and a valid token is not
    /// refreshed again and again.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"),
            "needs faketime (Scripts/install-deps.sh test)"),
        .enabled(if: !SanitizerOptions.areSet, Comment(rawValue: SanitizerOptions.fakeTimeDeadlock)),
        arguments: ["-600s", "+600s"])
    func aClockMinutesOff(offset: String) async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let clock = ["/usr/bin/faketime", "-f", offset]
        let login = try await cli.login(SignedInProfile.username, lines: [SignedInProfile.password], wrapper: clock)
        let baseline = try await profile.proxy.records().count
        var tokens: [ProcessOutput] = []
        for _ in 0..<5 { tokens.append(try await cli.run(["token"], wrapper: clock)) }
        let refreshes = try await profile.operations(after: baseline).count
        let facts: [FaultFact] = [
            ("sign-in works", login.status == 0), ("token works", tokens.allSatisfy { $0.status == 0 }),
            ("no refresh storm", refreshes <= 1),
            ("token works on the true clock", try await Self.givesAMotoToken(profile)),
        ]
        try await Self.record("clock set \(offset.dropLast()) s off", facts, profile)
    }

    /// `authvault token` exits 0 with a token moto issued to the user.
    static func givesAMotoToken(_ profile: SignedInProfile) async throws -> Bool {
        let output = try await profile.cli.run(["token"])
        guard output.status == 0 else { return false }
        let owner = try? await profile.pool.owner(ofAccessToken: output.stdoutText.trimmingCharacters(in: .newlines))
        return owner == SignedInProfile.username
    }

    /// A row whose last fact is that the session gave a token afterwards.
    static func record(
        _ scenario: String, _ facts: [FaultFact], _ profile: SignedInProfile,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let healed = facts.last?.held ?? false
        try await FaultMatrix.record(
            scenario, facts, tokensLost: healed ? 0 : 1, sweeping: profile.cli, sourceLocation: sourceLocation)
    }
}

/// A directory moved onto a 1 MiB tmpfs mounted in its place (its files copied over), which the test can fill up.
final class SmallDisk: @unchecked Sendable {
    let path: String
    private var mounted = false
    private var filler: String { path + "/.filler" }

    init(holding path: String) throws {
        self.path = path
        let saved = path + ".saved"
        try Self.shell(
            "mv '\(path)' '\(saved)' && mkdir -m 700 '\(path)' && mount -t tmpfs -o size=1m,mode=0700 tmpfs '\(path)'")
        mounted = true
        try Self.shell("cp -a '\(saved)/.' '\(path)/' && rm -rf '\(saved)'")
    }

    /// Writes zeros until the disk is full (dd stops at ENOSPC).
    func fill() throws {
        _ = try ProcessRunner.run("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4096"])
    }

    func free() throws {
        try FileManager.default.removeItem(atPath: filler)
    }

    /// Puts the files back on the ordinary disk.
    func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? Self.shell(
            "rm -f '\(filler)'; cp -a '\(path)' '\(path).saved' && umount '\(path)' && rmdir '\(path)' && mv '\(path).saved' '\(path)'"
        )
    }

    deinit { unmount() }

    private static func shell(_ script: String) throws {
        let output = try ProcessRunner.run("/bin/sh", ["-c", script])
        guard output.status == 0 else { throw TestFixtureError("\(script): \(output.stderrText)") }
    }
}
