import Foundation
import TestSupport
import Testing

/// Examples/docker/config.json as docker reads it: for each registry in `credHelpers`, docker runs the program
/// `docker-credential-<value>` with the argument `get` and the registry's host on standard input (no newline), and
/// reads a JSON object back. Here the program is a link to the built binary under that name, as `make install`
/// lays it out, on a signed-in profile that lists the snippet's registries with `configure --helper-host`.
@Suite struct DockerSnippetTests {
    @Test func theSnippetsHelperAnswersForItsRegistries() async throws {
        let snippet = try Data(contentsOf: URL(fileURLWithPath: PackageFiles.path("Examples/docker/config.json")))
        let config = try #require(try JSONSerialization.jsonObject(with: snippet) as? [String: Any])
        let helpers = try #require(config["credHelpers"] as? [String: String])
        #expect(!helpers.isEmpty)

        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let hosts = try await cli.run(["configure"] + helpers.keys.sorted().flatMap { ["--helper-host", $0] })
        #expect(hosts.status == 0, "\(hosts.stderrText)")
        let accessToken = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        let links = try CommandLinks(
            Set(helpers.values).map { "docker-credential-\($0)" }, to: cli.authvault, in: cli.root)

        for (registry, helper) in helpers.sorted(by: { $0.key < $1.key }) {
            let output = try await BoundedProcess.run(
                links.path("docker-credential-\(helper)"), ["get"],
                stdin: Data(registry.utf8), environment: cli.environment)
            #expect(output.status == 0, "\(output.stderrText)")
            let answer = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: String])
            #expect(answer["ServerURL"] == registry)
            #expect(answer["Username"] == SignedInProfile.username)
            let secretIsTheToken = sameSecret(answer["Secret"], accessToken)
            #expect(secretIsTheToken, "the profile's access token")
            #expect(answer.count == 3)
            let onStandardError = cli.knownSecrets.filter { output.stderrText.contains($0.key) }.map(\.value)
            #expect(onStandardError.isEmpty, "secrets on standard error: \(onStandardError)")
        }
        cli.expectNoSecretLeaks()
    }
}
