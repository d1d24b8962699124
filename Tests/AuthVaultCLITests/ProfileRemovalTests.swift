import Foundation
import TestSupport
import Testing

/// `profiles remove` deletes everything the profile kept, on either backend: its record (tokens, client secret,
/// device keys, AWS credentials) in the encrypted file vault and its items in the Secret Service (gnome-keyring on
/// a private bus), its lock file, its revision file and its entry in the record of backends; another profile's
/// things stay.
@Suite struct ProfileRemovalTests {
    /// Every secret the vault can hold for a profile, each named for it.
    static func fullRecord(_ profile: String) -> [String: Any] {
        let now = Date().timeIntervalSince1970
        return [
            "profile": profile, "revision": 1, "accessToken": "access-\(profile)", "idToken": "id-\(profile)",
            "refreshToken": "refresh-\(profile)", "clientSecret": "client-secret-\(profile)", "username": "alice",
            "accessTokenExpiresAt": now + 3600, "identityId": "us-east-1:identity-\(profile)",
            "awsAccessKeyId": "ASIA\(profile.uppercased())", "awsSecretAccessKey": "aws-secret-\(profile)",
            "awsSessionToken": "aws-session-\(profile)", "awsExpiresAt": now + 3600,
            "deviceKey": "us-east-1_device-\(profile)", "deviceGroupKey": "group-\(profile)",
            "devicePassword": "device-password-\(profile)",
        ]
    }

    func save(_ profile: String, backend: String, pool: String, client: String, cli: HeadlessCLI) async throws {
        let output = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            [
                "save", "--backend", backend, "--directory", cli.dataDirectory, "--logn", "10", "--cache", "none",
                "--pool", pool, "--client", client, "--profile", profile,
            ],
            stdin: try JSONSerialization.data(withJSONObject: Self.fullRecord(profile)),
            environment: cli.session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": HeadlessCLI.vaultPassphrase]) {
                $1
            }, timeout: 30)
        guard output.stdoutText.contains(#""outcome":"ok""#) else {
            throw TestFixtureError("vault-probe save: \(output.stdoutText)")
        }
        for (field, value) in Self.fullRecord(profile)
        where field.lowercased().contains("secret") || field.hasSuffix("Token") || field == "devicePassword" {
            cli.remember("\(value)", as: "\(profile)'s \(field)")
        }
    }

    /// Every path under the data directory, relative to it, and the record of backends' text.
    func dataDirectoryListing(_ cli: HeadlessCLI) throws -> (paths: [String], backends: String) {
        let paths = FileManager.default.enumerator(atPath: cli.dataDirectory)?.allObjects as? [String] ?? []
        let backends = (try? String(contentsOfFile: cli.dataDirectory + "/backends.json", encoding: .utf8)) ?? ""
        return (paths.sorted(), backends)
    }

    @Test func onTheFileVaultNothingOfTheProfileStays() async throws {
        let cli = try HeadlessCLI()
        for profile in ["gone", "kept"] {
            let configured = try await cli.run([
                "-p", profile, "configure", "--user-pool-id", "us-east-1_G1", "--client-id", "g",
            ])
            #expect(configured.status == 0, "\(configured.stderrText)")
            try await save(profile, backend: "file", pool: "us-east-1_G1", client: "g", cli: cli)
        }
        // What earlier commands leave: the lock file, and the note of a failed refresh beside it.
        let locks = cli.dataDirectory + "/locks"
        try FileManager.default.createDirectory(
            atPath: locks, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for file in ["gone.lock", "gone.lock.note"] {
            #expect(
                FileManager.default.createFile(
                    atPath: locks + "/" + file, contents: Data(), attributes: [.posixPermissions: 0o600]))
        }
        let before = try dataDirectoryListing(cli)
        #expect(
            before.paths.contains("gone.record") && before.paths.contains("revisions/gone.revision")
                && before.paths.contains("locks/gone.lock") && before.backends.contains("\"gone\""), "\(before)")

        let removed = try await cli.run(["profiles", "remove", "gone", "--yes"])
        #expect(removed.status == 0, "\(removed.stderrText)")
        #expect(
            removed.stderrText.contains(
                "Deleted its tokens, client secret, device keys and AWS credentials from the encrypted file vault"),
            "\(removed.stderrText)")
        let after = try dataDirectoryListing(cli)
        #expect(after.paths.filter { $0.contains("gone") }.isEmpty, "left behind: \(after.paths)")
        #expect(!after.backends.contains("gone"), "\(after.backends)")
        #expect(
            after.paths.contains("kept.record") && after.paths.contains("revisions/kept.revision")
                && after.backends.contains("\"kept\""))
        cli.expectNoSecretLeaks()
    }

    /// On the Secret Service, with a stale file record from before a migration beside it: both go.
    @Test(.enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
    func onTheSecretServiceNothingOfTheProfileStays() async throws {
        let cli = try HeadlessCLI(.gnomeKeyring)
        for (profile, client) in [("gone", "g"), ("kept", "k")] {
            let configured = try await cli.run(
                [
                    "-p", profile, "configure", "--user-pool-id", "us-east-1_G1", "--client-id", client,
                    "--client-secret-stdin",
                ], stdin: "client-secret-\(profile)\n")
            #expect(configured.status == 0, "\(configured.stderrText)")
            try await save(profile, backend: "secret-service", pool: "us-east-1_G1", client: client, cli: cli)
        }
        try await save("gone", backend: "file", pool: "us-east-1_G1", client: "g", cli: cli)
        let search = { (profile: String) throws -> String in
            let output = try cli.session.run(
                "secret-tool", ["search", "--all", "application", "authvault", "profile", profile])
            return output.stdoutText + output.stderrText
        }
        #expect(try search("gone").contains("profile = gone"), "the keyring holds the profile's item")
        #expect(try dataDirectoryListing(cli).backends.contains("\"gone\" : \"secret-service\""))

        let removed = try await cli.run(["profiles", "remove", "gone", "--yes"])
        #expect(removed.status == 0, "\(removed.stderrText)")
        #expect(
            removed.stderrText.contains("from the encrypted file vault and the Secret Service"), "\(removed.stderrText)"
        )
        let left = try search("gone")
        #expect(left.isEmpty, "left in the keyring: \(left)")
        #expect(try search("kept").contains("profile = kept"), "another profile's item stays")
        let after = try dataDirectoryListing(cli)
        #expect(after.paths.filter { $0.contains("gone") }.isEmpty, "left behind: \(after.paths)")
        #expect(!after.backends.contains("gone") && after.backends.contains("\"kept\""), "\(after.backends)")
        cli.expectNoSecretLeaks()
    }
}
