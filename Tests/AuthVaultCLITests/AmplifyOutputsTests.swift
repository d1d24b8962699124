import Foundation
import TestSupport
import Testing

/// `configure --from-amplify-outputs`, through the binary, on an Amplify Gen 2 outputs file (schema 1.4) as
/// `npx ampx generate outputs` writes it (Examples/amplify/amplify_outputs.json).
@Suite struct AmplifyOutputsTests {
    let example = PackageFiles.path("Examples/amplify/amplify_outputs.json")

    private func profile(_ cli: HeadlessCLI, _ name: String) async throws -> [String: Any] {
        let listed = try await cli.run(["profiles", "--json"])
        let profiles =
            (try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])?["profiles"] as? [[String: Any]]
            ?? []
        return try #require(profiles.first { $0["name"] as? String == name })
    }

    @Test func aProfileComesFromTheAmplifyOutputs() async throws {
        let cli = try HeadlessCLI()
        let output = try await cli.run(["-p", "app", "configure", "--from-amplify-outputs", example, "--vault", "file"])
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(
            output.stderrText.contains(
                "Not taken from the Amplify outputs (a sign-in here listens on loopback only): https://app.example.com/"
            ))
        #expect(!output.stderrText.contains("identity pool"), "the identity pool is taken")
        let app = try await profile(cli, "app")
        #expect(app["userPoolId"] as? String == "eu-west-1_AmPl1fy42")
        #expect(app["clientId"] as? String == "3n4mpl1fyc11ent1d000example")
        #expect(app["region"] as? String == "eu-west-1")
        #expect(app["identityPoolId"] as? String == "eu-west-1:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b")
        #expect(app["hostedUI"] as? String == "https://amplify-example.auth.eu-west-1.amazoncognito.com")
        #expect(app["scopes"] as? [String] == ["phone", "email", "openid", "profile", "aws.cognito.signin.user.admin"])
        #expect(app["redirectURIs"] as? [String] == ["http://localhost:3000/", "http://127.0.0.1:53682/callback"])
        #expect(app["signOutURI"] as? String == "http://127.0.0.1:53682/signed-out")
        #expect(app["identityProvider"] as? String == "Google", "the file names exactly one social provider")
        #expect(app["problem"] == nil)
    }

    @Test func theProviderIsTakenOnlyWhenTheFileNamesExactlyOne() async throws {
        let cli = try HeadlessCLI()
        let scratch = try TemporaryDirectory(prefix: "authvault-amplify")
        let text = try String(contentsOfFile: example, encoding: .utf8)
        for (name, providers) in [("two", #"["GOOGLE", "FACEBOOK"]"#), ("none", "[]")] {
            let path = scratch.appending("\(name).json")
            try text.replacingOccurrences(
                of: #""identity_providers": ["GOOGLE"]"#, with: #""identity_providers": \#(providers)"#
            )
            .write(toFile: path, atomically: true, encoding: .utf8)
            let output = try await cli.run(["-p", name, "configure", "--from-amplify-outputs", path, "--vault", "file"])
            #expect(output.status == 0, "\(output.stderrText)")
            #expect(
                try await profile(cli, name)["identityProvider"] == nil,
                "\(name): the Hosted UI page lets the user choose")
        }
    }

    @Test func optionsGivenWithTheFileWinAndBadFilesChangeNothing() async throws {
        let cli = try HeadlessCLI()
        let output = try await cli.run([
            "configure", "--from-amplify-outputs", example, "--client-id", "mine",
            "--redirect-uri", "http://127.0.0.1:8400/callback", "--vault", "file",
        ])
        #expect(output.status == 0, "\(output.stderrText)")
        let chosen = try await profile(cli, "default")
        #expect(chosen["clientId"] as? String == "mine")
        #expect(chosen["redirectURIs"] as? [String] == ["http://127.0.0.1:8400/callback"])
        #expect(chosen["userPoolId"] as? String == "eu-west-1_AmPl1fy42")

        let scratch = try TemporaryDirectory(prefix: "authvault-amplify")
        let cases = [
            ("gen1.json", #"{"aws_user_pools_id": "eu-west-1_X"}"#, "no auth section"),
            ("v2.json", #"{"version": "2", "auth": {}}"#, "version 2"),
            (
                "partial.json",
                #"{"version": "1.3", "auth": {"aws_region": "eu-west-1", "user_pool_id": "eu-west-1_X"}}"#,
                "missing auth.user_pool_client_id"
            ),
            ("broken.json", "{", "not valid JSON"),
        ]
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        for (name, text, problem) in cases {
            let path = scratch.appending(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let refused = try await cli.run(["-p", "other", "configure", "--from-amplify-outputs", path])
            #expect(refused.status == 1, "\(name): \(refused.stderrText)")
            #expect(
                refused.stderrText.contains(path) && refused.stderrText.contains(problem),
                "\(name): \(refused.stderrText)")
        }
        let missing = try await cli.run([
            "-p", "other", "configure", "--from-amplify-outputs", scratch.appending("absent.json"),
        ])
        #expect(missing.status == 1 && missing.stderrText.contains("absent.json"))
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == before, "nothing was written")
    }

    /// A file from anywhere is checked as `configure` checks its options: one that would send the profile's requests
    /// to another host, or carries what no option accepts, is refused by name and writes nothing.
    @Test func hostileOutputsAreRefusedAndWriteNothing() async throws {
        let cli = try HeadlessCLI()
        let example =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: example))) as? [String: Any]
            ?? [:]
        let scratch = try TemporaryDirectory(prefix: "authvault-amplify-hostile")
        let cases: [(field: String, value: Any, oauth: Bool)] = [
            ("aws_region", "attacker.example#", false), ("aws_region", "us-east-1", false),
            ("user_pool_id", "eu-west-1_X/../../attacker", false), ("user_pool_client_id", "c\u{1b}[2J", false),
            ("identity_pool_id", "eu-west-1:not-a-guid@attacker.example", false),
            ("domain", "attacker.example#", true), ("domain", "http://attacker.example", true),
            ("domain", "https://user@attacker.example", true), ("scopes", ["openid", "a b\n"], true),
        ]
        for (index, hostile) in cases.enumerated() {
            var file = example
            var auth = file["auth"] as? [String: Any] ?? [:]
            if hostile.oauth {
                var oauth = auth["oauth"] as? [String: Any] ?? [:]
                oauth[hostile.field] = hostile.value
                auth["oauth"] = oauth
            } else {
                auth[hostile.field] = hostile.value
            }
            file["auth"] = auth
            let path = scratch.appending("hostile-\(index).json")
            try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
            let refused = try await cli.run(["-p", "hostile", "configure", "--from-amplify-outputs", path])
            #expect(refused.status == 1, "\(hostile.field): \(refused.stderrText)")
            #expect(
                refused.stderrText.contains(hostile.field) && refused.stderrText.contains("is refused"),
                "\(refused.stderrText)")
            #expect(!refused.stderrText.utf8.contains(0x1B), "the terminal never gets the file's control characters")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.configPath), "nothing was written")
    }
}
