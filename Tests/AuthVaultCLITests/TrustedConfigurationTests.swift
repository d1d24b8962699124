import Foundation
import TestSupport
import Testing

/// Issue 10 items 3 and 4 through the built binary: the files that say where tokens go (the configuration, a CA
/// bundle) are used only while no other user can change them, each refusal naming the command that fixes it; and a
/// hand-edited plain-http URL to a host that is not a loopback address is refused when used, before any connection.
@Suite struct TrustedConfigurationTests {
    @Test func aConfigurationOthersCanChangeIsRefusedWithTheChmod() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        #expect(try await cli.run(["configure", "--helper-host", "git.example.com"]).status == 0)
        let accessToken = try #require(try await cli.storedRecord()?["accessToken"] as? String)

        chmod(cli.configPath, 0o664)
        for (arguments, stdin) in [
            (["git-credential", "get"], "protocol=https\nhost=git.example.com\n\n"),
            (["docker-credential", "get"], "git.example.com\n"), (["token"], ""), (["profiles"], ""),
        ] {
            let output = try await cli.run(arguments, stdin: stdin)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stderrText.contains("chmod 0644 '\(cli.configPath)'"), "\(arguments): \(output.stderrText)")
            expectNoSecrets(in: output.stdoutText, [accessToken], "stdout of \(arguments)")
            expectNoSecrets(in: output.stderrText, [accessToken], "stderr of \(arguments)")
        }
        // Others may read it (it holds no secret); only changing it is theirs to be denied.
        chmod(cli.configPath, 0o644)
        expectSecret(accessToken + "\n", equals: try await cli.run(["token"]).stdoutText)
        cli.expectNoSecretLeaks()
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aConfigurationAnotherUserOwnsIsRefusedWithTheChown() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        chown(cli.configPath, 12345, 12345)
        let output = try await cli.run(["token"])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.contains("belongs to user 12345"), "\(output.stderrText)")
        #expect(output.stderrText.contains("chown root '\(cli.configPath)'"), "\(output.stderrText)")
        cli.expectNoSecretLeaks()
    }

    @Test func aCABundleOthersCanChangeIsRefusedAtConfigureAndWhenUsed() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let tls = try TLSFixture()
        let bundle = tls.caCertificatePath
        chmod(bundle, 0o644)
        #expect(try await cli.run(["configure", "--ca-bundle", bundle]).status == 0)
        #expect(try await cli.run(["whoami"]).status == 0, "a private bundle is used for every request")

        chmod(bundle, 0o666)
        let configure = try await cli.run(["configure", "--ca-bundle", bundle])
        #expect(configure.status == 2)
        #expect(configure.stderrText.contains("chmod 0644 '\(bundle)'"), "\(configure.stderrText)")
        let baseline = try await profile.proxy.records().count
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 1)
        #expect(whoami.stderrText.contains("chmod 0644 '\(bundle)'"), "\(whoami.stderrText)")
        #expect(try await profile.proxy.records().count == baseline, "no request was sent")
        cli.expectNoSecretLeaks()
    }

    /// `evil.localhost` is resolved to 127.0.0.1 by libcurl itself, so without the check the refresh would reach
    /// the listener; the other names only pass a prefix test.
    @Test(arguments: ["evil.localhost", "127.attacker.example", "127.0.0.1.nip.io"])
    func aHandEditedPlainHTTPEndpointIsRefusedWhenUsed(host: String) async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let listener = try await ScriptServer.start(script: "http_test_server.py")
        try editProfile(at: cli.configPath) { $0["endpoint"] = "http://\(host):\(listener.port)/" }

        let refresh = try await cli.run(["refresh"])
        #expect(refresh.status != 0)
        #expect(refresh.stderrText.contains("use https://"), "\(refresh.stderrText)")
        let counted = try await LoopbackHTTP.send(method: "GET", url: "http://127.0.0.1:\(listener.port)/connections")
        #expect(counted.json["connections"] as? Int == 1, "only the count itself reached the listener")
        cli.expectNoSecretLeaks()
    }

    /// Changes the default profile's settings in the JSON file, as a hand edit would (mode and owner kept).
    private func editProfile(at path: String, _ change: (inout [String: Any]) -> Void) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var profiles = try #require(file["profiles"] as? [String: Any])
        var settings = try #require(profiles[HeadlessCLI.profile] as? [String: Any])
        change(&settings)
        profiles[HeadlessCLI.profile] = settings
        file["profiles"] = profiles
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: try JSONSerialization.data(withJSONObject: file))
    }
}
