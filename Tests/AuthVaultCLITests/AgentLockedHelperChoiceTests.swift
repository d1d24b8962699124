import Foundation
import TestSupport
import Testing

/// A client's request that makes the agent choose among profiles by git's user name, after `vault lock`: the agent
/// reads the candidates' signed-in users from its own stores, as locked as its vault, so the request is answered
/// "vault locked", no key derivation runs for it (the agent's passphrase file is not even opened), and the data key does not come back into the user keyring (where
/// every direct `authvault token` would find it again without an unlock).
@Suite(.serialized, .enabled(if: KeyringTools.present, "needs keyctl and setpriv"))
struct AgentLockedHelperChoiceTests {
    static let host = "git.example.com"

    @Test func aChoiceByUserNameAfterALockLeavesTheVaultLocked() async throws {
        let profile = try await CachedKeyProfile(
            prefix: "authvault-locked-choice", passphrase: "locked choice words", tokenID: "locked-choice")
        // "default" (signed in as alice) and "other" both list the host: only git's user name tells them apart.
        try await profile.configure(["--helper-host", Self.host])
        let other = try await profile.inNewSession(
            #""$AUTHVAULT" --profile other configure --user-pool-id us-east-1_Test1 --client-id client2 "#
                + #"--vault file --helper-host git.example.com"#)
        try #require(other.status == 0, "\(other.stderrText)")
        // Every open of the agent's passphrase file counted: each is one key derivation.
        let passphraseFile = try WatchedPassphraseFile(
            path: profile.root.appending("passphrase"), passphrase: profile.passphrase)
        try FileManager.default.createDirectory(
            atPath: profile.root.appending("runtime"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let socket = profile.root.appending("runtime") + "/authvault/agent.sock"
        var environment = profile.environment
        environment["AUTHVAULT_VAULT_PASSPHRASE_FILE"] = passphraseFile.path
        let agent = try AgentProcess.start(
            "/usr/bin/keyctl", ["session", "-", profile.authvault, "agent"], environment: environment,
            log: profile.root.appending("agent.log"))
        defer { agent.kill() }
        try await agent.waitForSocket(socket)

        let lock = try await profile.inNewSession(#""$AUTHVAULT" vault lock"#)
        #expect(lock.status == 0, "\(lock.stderrText)")
        #expect(lock.stderrText.contains("in the agent too"), "\(lock.stderrText)")
        let description = try KeyCacheSharingTests.keyDescription(dataDirectory: profile.dataDirectory)
        #expect(try await Self.keyIsCached(profile, description) == false, "the lock cleared the user keyring")

        let derivations = passphraseFile.opens
        let request =
            #"{"v":1,"op":"token","target":{"scheme":"https","host":"git.example.com","username":"alice"}}"#
        for _ in 0..<2 {
            let replies = try await RawAgentRequests.send([request], to: socket)
            #expect(replies.count == 1 && replies[0].contains(#""ok":false"#), "no token after the lock")
            #expect(replies.first?.contains(#""code":"vaultLocked""#) == true, "\(replies)")
        }
        #expect(passphraseFile.opens == derivations, "a request made the agent derive the key")
        #expect(try await Self.keyIsCached(profile, description) == false, "the agent put the key back")
        let direct = try await profile.inNewSession(
            #""$AUTHVAULT" token"#, extra: ["AUTHVAULT_AGENT_SOCKET": profile.root.appending("no-agent.sock")])
        #expect(direct.status != 0 && direct.stdout.isEmpty, "a direct token read the vault without an unlock")
        #expect(!agent.log.contains(profile.passphrase))
    }

    /// Whether the vault's data key is in the user keyring.
    static func keyIsCached(_ profile: CachedKeyProfile, _ description: String) async throws -> Bool {
        let search = try await profile.inNewSession(
            #"keyctl search @u user "$DESCRIPTION" >/dev/null 2>&1 && echo found || echo missing"#,
            extra: ["DESCRIPTION": description])
        return search.stdoutText == "found\n"
    }
}
