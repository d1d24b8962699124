import Foundation
import TestSupport
import Testing

/// The file vault's key cache outside a login session: each `authvault` runs in a session keyring of its own
/// (`keyctl session -`, as cron, systemd services, CI and containers run), yet the second finds the key the first
/// cached, in the user keyring; and another uid (65534, through setpriv) cannot read that key even from a session
/// keyring that links this user's keyring, as a `su` without a new session has.
@Suite(.serialized, .enabled(if: KeyringTools.present, "needs keyctl and setpriv"))
struct KeyCacheSharingTests {
    let profile: CachedKeyProfile
    var passphrase: String { profile.passphrase }
    var token: String { profile.token }
    var dataDirectory: String { profile.dataDirectory }

    init() async throws {
        profile = try await CachedKeyProfile(
            prefix: "authvault-key-cache", passphrase: "correct horse", tokenID: "shared-cache")
    }

    /// `script` under `sh -ec` in a new anonymous session keyring, with `$AUTHVAULT`, `$DESCRIPTION` (the vault's
    /// key in the keyring) and the given passphrase, if any.
    func inNewSession(_ script: String, passphrase: String? = nil) async throws -> ProcessOutput {
        try await profile.inNewSession(script, passphrase: passphrase, extra: ["DESCRIPTION": try keyDescription()])
    }

    /// "authvault:vault-key:" + hex(the salt's first 16 bytes), the salt at bytes 27..<59 of vault.key (VaultKeyFile).
    func keyDescription() throws -> String {
        try Self.keyDescription(dataDirectory: dataDirectory)
    }

    static func keyDescription(dataDirectory: String) throws -> String {
        let keyFile = try #require(FileManager.default.contents(atPath: dataDirectory + "/vault.key"))
        try #require(keyFile.count >= 43)
        return "authvault:vault-key:"
            + keyFile[keyFile.startIndex + 27..<keyFile.startIndex + 43]
            .map { String(format: "%02x", $0) }.joined()
    }

    @Test func processesInSessionKeyringsOfTheirOwnShareTheCache() async throws {
        let first = try await inNewSession(#""$AUTHVAULT" token"#, passphrase: passphrase)
        #expect(first.status == 0, "\(first.stderrText)")
        expectSecret(first.stdoutText.trimmingCharacters(in: .newlines), equals: token, "the first token")
        // No passphrase at all and no terminal: only the cached key can open the vault.
        let second = try await inNewSession(#""$AUTHVAULT" token"#)
        #expect(second.status == 0, "the second process found no cached key: \(second.stderrText)")
        expectSecret(
            second.stdoutText.trimmingCharacters(in: .newlines), equals: token, "the second token, from the cached key")
        let inUserKeyring = try await inNewSession(#"keyctl search @u user "$DESCRIPTION" >/dev/null && echo found"#)
        #expect(inUserKeyring.stdoutText == "found\n", "the key is in the user keyring: \(inUserKeyring.stderrText)")

        let status = try await inNewSession(#""$AUTHVAULT" vault status --json"#)
        let report = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any] ?? [:]
        let file = (report["backends"] as? [[String: Any]] ?? []).first { $0["backend"] as? String == "file" }
        let details = file?["details"] as? [String: String] ?? [:]
        #expect(details["keyCacheShared"]?.hasPrefix("yes") == true, "\(details)")
        #expect(details["keyCache"]?.hasPrefix("user keyring") == true, "\(details)")

        try await profile.lock()
        let locked = try await inNewSession(#""$AUTHVAULT" token"#)
        #expect(locked.status != 0, "a token after the lock, with no passphrase")
        let afterLock = try await inNewSession(#""$AUTHVAULT" vault status --json"#)
        #expect(afterLock.stdoutText.contains("no key is cached"), "\(afterLock.stdoutText)")
    }

    /// The session keyring links this user's keyring, as a login session's does, and is shared with uid 65534: a
    /// key planted there with the kernel's default permissions is readable by 65534 (the setup can tell), the vault's
    /// key is not, neither by serial nor by search.
    @Test func anotherUidCannotReadTheCachedKey() async throws {
        let output = try await inNewSession(
            #"""
            keyctl link @u @s
            "$AUTHVAULT" token >/dev/null
            serial=$(keyctl search @u user "$DESCRIPTION")
            planted=$(printf 'planted-key-bytes' | keyctl padd user "authvault-test:planted:$$" @s)
            as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
            as_nobody keyctl print "$planted" >/dev/null 2>&1 && echo "planted: readable" || echo "planted: refused"
            as_nobody keyctl print "$serial" >/dev/null 2>&1 && echo "vault key: readable" || echo "vault key: refused"
            as_nobody keyctl search @s user "$DESCRIPTION" >/dev/null 2>&1 && echo "vault key: found" || echo "vault key: not found"
            keyctl invalidate "$planted"
            """#, passphrase: passphrase)
        try await profile.lock()
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(
            output.stdoutText == "planted: readable\nvault key: refused\nvault key: not found\n", "\(output.stdoutText)"
        )
    }
}

enum KeyringTools {
    static let present =
        ["keyctl", "setpriv"].allSatisfy { (try? ProcessRunner.which($0)) != nil }
        && FileManager.default.fileExists(atPath: "/proc/keys")
}
