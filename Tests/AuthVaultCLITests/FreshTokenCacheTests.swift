import Foundation
import TestSupport
import Testing

/// The fresh tokens the file vault keeps in the user keyring (`FreshTokenEntry`), end to end with the built binary,
/// each `authvault` in a session keyring of its own: a kept token is served only while its record file is the one
/// it came from, the vault's key is cached and its fresh window lasts; anything else (a sign-out, a refresh or a
/// removal by another process, `vault lock`, a payload altered or past its time) takes the path that reads the
/// record.
@Suite(.serialized, .enabled(if: KeyringTools.present, "needs keyctl"))
struct FreshTokenCacheTests {
    var profile: CachedKeyProfile

    init() async throws {
        profile = try await CachedKeyProfile(
            prefix: "authvault-fresh-token", passphrase: "fresh token passphrase", tokenID: "kept")
        try await profile.configure(["--profile", "remote", "--endpoint", "https://127.0.0.1:9"])
    }

    func entry(_ kind: String = "access") -> String {
        "authvault:fresh-token:\(kind):default:\(profile.dataDirectory)"
    }

    var payloadFile: String { profile.root.appending("payload") }

    func run(_ script: String, passphrase: String? = nil) async throws -> ProcessOutput {
        try await profile.inNewSession(
            script, passphrase: passphrase,
            extra: ["ENTRY": entry(), "ID_ENTRY": entry("id"), "PAYLOAD": payloadFile])
    }

    func token() async throws -> ProcessOutput {
        try await run(#""$AUTHVAULT" token"#)
    }

    func served(_ output: ProcessOutput) -> String {
        output.stdoutText.trimmingCharacters(in: .newlines)
    }

    /// The key derived from the passphrase and the token kept; then read at hand, and kept again.
    func warmUp() async throws {
        let derived = try await run(#""$AUTHVAULT" token >/dev/null"#, passphrase: profile.passphrase)
        #expect(derived.status == 0, "\(derived.stderrText)")
        #expect(try await isKept(), "the token served after the key was derived is kept")
        let atHand = try await run(#"keyctl invalidate "$(keyctl search @u user "$ENTRY")"; "$AUTHVAULT" token"#)
        #expect(atHand.status == 0, "\(atHand.stderrText)")
        #expect(try await isKept(), "the token read at hand is kept")
    }

    func isKept(_ variable: String = "ENTRY") async throws -> Bool {
        try await run(#"keyctl search @u user "$\#(variable)" >/dev/null 2>&1 && echo kept || echo gone"#)
            .stdoutText == "kept\n"
    }

    /// Replaces the kept access token's payload with `change(payload)`.
    func tamper(_ change: (inout [UInt8]) -> Void) async throws {
        let read = try await run(#"keyctl pipe "$(keyctl search @u user "$ENTRY")" >"$PAYLOAD""#)
        #expect(read.status == 0, "\(read.stderrText)")
        var payload = try [UInt8](Data(contentsOf: URL(fileURLWithPath: payloadFile)))
        change(&payload)
        try Data(payload).write(to: URL(fileURLWithPath: payloadFile))
        // Possessed through the session keyring, so the new key's permissions can be made what the vault makes them.
        let written = try await run(
            #"""
            keyctl link @u @s
            keyctl invalidate "$(keyctl search @u user "$ENTRY")"
            keyctl setperm "$(keyctl padd user "$ENTRY" @u <"$PAYLOAD")" 0x001b0000
            """#)
        #expect(written.status == 0, "\(written.stderrText)")
    }

    /// Where the payload's servable-until time starts: after the magic, the version, and three byte strings (the
    /// tag, the key's description, the binding), each after its length.
    static func servableUntilOffset(_ payload: [UInt8]) -> Int {
        var offset = 4 + 1
        for _ in 0..<3 { offset += 1 + Int(payload[offset]) }
        return offset
    }

    /// The kept token itself is what a warm `token` serves (so the tests below would see it if it were served).
    @Test func theKeptTokenIsServedWithoutTheRecord() async throws {
        try await warmUp()
        try await tamper { $0[$0.count - 1] ^= 0x01 }
        let kept = try await token()
        try await profile.lock()
        #expect(kept.status == 0, "\(kept.stderrText)")
        expectSecret(served(kept), differsFrom: profile.token, "the altered kept token is served")
        #expect(served(kept).count == profile.token.count)
    }

    @Test func aSignOutOrARemovalInAnotherProcessEndsTheKeptToken() async throws {
        try await warmUp()
        // The pool is not reachable: the tokens still go from this machine, the refresh token kept to revoke later.
        let signedOut = try await run(#""$AUTHVAULT" logout"#)
        #expect(signedOut.stderrText.contains("The tokens are gone from this machine"), "\(signedOut.stderrText)")
        let afterSignOut = try await token()
        expectSecret(served(afterSignOut), differsFrom: profile.token, "a token after sign-out")
        let keptAfterSignOut = try await isKept()
        #expect(!keptAfterSignOut, "the sign-out forgot the kept token")

        // Another process that keeps nothing in the keyring removes the record: the tag alone ends the entry.
        _ = try await profile.saveRecord(tokenID: "again")
        try await warmUp()
        let removed = try await profile.vaultProbe("delete")
        #expect(removed.status == 0, "\(removed.stderrText)")
        #expect(try await isKept(), "that process did not touch the keyring")
        let afterRemoval = try await token()
        try await profile.lock()
        #expect(afterRemoval.status != 0 && afterRemoval.stdoutText.isEmpty, "no token once the record is gone")
    }

    @Test func aRefreshInAnotherProcessServesTheNewToken() async throws {
        try await warmUp()
        let refreshed = try await profile.saveRecord(tokenID: "refreshed")
        let next = try await token()
        try await profile.lock()
        #expect(next.status == 0, "\(next.stderrText)")
        expectSecret(served(next), equals: refreshed, "the new record's token")
    }

    @Test func aLockEndsAndRemovesTheKeptTokens() async throws {
        try await warmUp()
        let id = try await run(#""$AUTHVAULT" token --id >/dev/null"#)
        let idKept = try await isKept("ID_ENTRY")
        #expect(id.status == 0 && idKept, "\(id.stderrText)")
        let locked = try await run(#""$AUTHVAULT" vault lock"#)
        #expect(locked.status == 0, "\(locked.stderrText)")
        let accessLeft = try await isKept()
        let idLeft = try await isKept("ID_ENTRY")
        #expect(!accessLeft && !idLeft, "both kept tokens left the user keyring")
        let after = try await token()
        #expect(after.status != 0 && after.stdoutText.isEmpty, "no token from a locked vault")
    }

    /// Owner-only and timed out, as the data key is: no longer than AUTHVAULT_KEY_CACHE_TIMEOUT (300 s here).
    @Test func aKeptTokenIsThisUsersAloneAndTimesOut() async throws {
        try await warmUp()
        let line = try await run(#"grep -F " $ENTRY" /proc/keys"#)
        try await profile.lock()
        // serial flags usage timeout permissions uid gid type description
        let columns = line.stdoutText.split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count > 8 && ["5m", "4m"].contains(columns[3]), "\(line.stdoutText)")
        #expect(columns.count > 8 && columns[4] == "001b0000", "possessors, group and others get nothing")
        #expect(columns.count > 8 && columns[5] == "\(getuid())")
    }

    /// A payload past its servable-until time, or garbage, is read as no entry: the record is read, its token
    /// served, and kept again.
    @Test func anExpiredOrGarbledEntryTakesThePathThatReadsTheRecord() async throws {
        try await warmUp()
        try await tamper { payload in
            let at = Self.servableUntilOffset(payload)
            payload.replaceSubrange(at..<at + 8, with: withUnsafeBytes(of: (1.0).bitPattern.bigEndian, Array.init))
            payload[payload.count - 1] ^= 0x01
        }
        let past = try await token()
        #expect(past.status == 0, "\(past.stderrText)")
        expectSecret(served(past), equals: profile.token, "the record's token, not the kept one")

        for garbage in [Array("garbage".utf8), [UInt8](repeating: 0xFF, count: 4096)] {
            try await tamper { $0 = garbage }
            let output = try await token()
            #expect(output.status == 0, "\(output.stderrText)")
            expectSecret(served(output), equals: profile.token, "the record's token")
        }
        let rewritten = try await run(#"keyctl pipe "$(keyctl search @u user "$ENTRY")" | wc -c"#)
        try await profile.lock()
        #expect((Int(rewritten.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 100, "kept again")
    }
}
