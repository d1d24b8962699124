import AuthVaultApp
import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

@Suite struct CommandTests {
    @Test func versionAndHelp() async throws {
        let cli = try CLIHarness()
        let version = await cli.run("--version")
        #expect(version.status == .success)
        #expect(version.stdout == "authvault \(AuthVault.version)\n")
        let help = await cli.run("--help")
        #expect(help.stdout.contains("configure"))
        #expect(help.stdout.contains("profiles"))
        let configureHelp = await cli.run("configure", "--help")
        for option in ConfigureCommand.spec.options {
            #expect(configureHelp.stdout.contains("--\(option.long)"))
        }
    }

    @Test func unknownFlagExitsWithUsage() async throws {
        let cli = try CLIHarness()
        let result = await cli.run("configure", "--no-such-flag")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("--no-such-flag"))
        #expect(result.stderr.contains("authvault configure --help"))
        #expect(result.stdout.isEmpty)
    }

    @Test func configureCreatesPrivateFileWithDerivedDefaults() async throws {
        let cli = try CLIHarness()
        let result = await cli.run("configure", "--user-pool-id", "eu-west-1_AbC123", "--client-id", "client1")
        #expect(result.status == .success)
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.configPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directory = try FileManager.default.attributesOfItem(
            atPath: (cli.configPath as NSString).deletingLastPathComponent)
        #expect((directory[.posixPermissions] as? Int) == 0o700)

        let profile = try ConfigStore(path: cli.configPath).profile(named: "default")
        #expect(profile.region == "eu-west-1")
        #expect(profile.endpoint == "https://cognito-idp.eu-west-1.amazonaws.com/")
        #expect(profile.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123")
        #expect(profile.jwksURL == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123/.well-known/jwks.json")
        #expect(profile.identityProvider == nil, "no provider unless one is given: the Hosted UI page lists the pool's")
        #expect(profile.scopes == ["openid", "email", "profile"])
        #expect(profile.vault == .auto)
    }

    @Test func configureUpdatesOnlyWhatIsGivenAndEmptyResets() async throws {
        let cli = try CLIHarness()
        _ = await cli.run(
            "--profile", "work", "configure", "--user-pool-id", "us-east-1_Pool1", "--client-id", "c1",
            "--endpoint", "http://127.0.0.1:5000", "--jwks-url", "http://127.0.0.1:5000/jwks.json",
            "--redirect-uri", "http://127.0.0.1:8400/callback", "--redirect-uri", "http://localhost:8401/callback",
            "--scopes", "openid,email", "--vault", "file", "--identity-provider", "")
        let update = await cli.run("-p", "work", "configure", "--client-id", "c2", "--endpoint", "")
        #expect(update.status == .success)
        #expect(update.stderr.contains("Updated profile 'work'"))
        let profile = try ConfigStore(path: cli.configPath).profile(named: "work")
        #expect(profile.clientId == "c2")
        #expect(profile.endpoint == "https://cognito-idp.us-east-1.amazonaws.com/")
        #expect(profile.jwksURL == "http://127.0.0.1:5000/jwks.json")
        #expect(profile.redirectURIs == ["http://127.0.0.1:8400/callback", "http://localhost:8401/callback"])
        #expect(profile.scopes == ["openid", "email"])
        #expect(profile.vault == .file)
        #expect(profile.identityProvider == nil)
    }

    @Test func profileComesFromTheEnvironmentAndConfigPathCanBeOverridden() async throws {
        var cli = try CLIHarness()
        let elsewhere = cli.home.appending("elsewhere/config.json")
        cli.environment["AUTHVAULT_PROFILE"] = "ci"
        cli.environment["AUTHVAULT_CONFIG"] = elsewhere
        let result = await cli.run("configure", "--user-pool-id", "us-east-1_X1", "--client-id", "c")
        #expect(result.status == .success)
        #expect(try ConfigStore(path: elsewhere).profile(named: "ci").userPoolId == "us-east-1_X1")
        #expect(!FileManager.default.fileExists(atPath: cli.configPath))
        let listed = await cli.run("profiles")
        #expect(listed.stdout.contains("*  ci"))
    }

    @Test(arguments: [
        ["--region", "Europe"],
        ["--user-pool-id", "nounderscore"],
        ["--client-id", "has space"],
        ["--endpoint", "http://example.com/"],
        ["--endpoint", "http://127.attacker.example/"],
        ["--jwks-url", "http://127.0.0.1.nip.io/jwks.json"],
        ["--redirect-uri", "http://localhost.evil.com:8400/cb"],
        ["--helper-host", "git.example.com/../path"],
        ["--helper-host", "git.example.com/a b"],
        ["--helper-host", "user@git.example.com"],
        ["--hosted-ui", "ftp://x"],
        ["--redirect-uri", "https://127.0.0.1:8400/cb"],
        ["--redirect-uri", "http://127.0.0.1/cb"],
        ["--vault", "plaintext"],
        ["--identity-pool-id", "us-east-1_AbC123"],
        ["--identity-pool-id", "eu-west-1:not-a-guid"],
        ["--identity-endpoint", "http://cognito-identity.example.com/"],
        ["--aws-role-arn", "arn:aws:iam::123:role/Reader"],
        ["--aws-role-arn", "arn:aws:iam::123456789012:user/Reader"],
        ["--aws-role-arn", "role/Reader"],
    ])
    func invalidValuesAreRejectedAndNothingIsWritten(arguments: [String]) async throws {
        let cli = try CLIHarness()
        let result = await cli.run(["configure", "--user-pool-id", "us-east-1_Ok1", "--client-id", "c"] + arguments)
        #expect(result.status == .usage)
        #expect(result.stderr.contains("Invalid value"))
        #expect(!FileManager.default.fileExists(atPath: cli.configPath))
    }

    @Test func newProfileNeedsPoolAndClient() async throws {
        let cli = try CLIHarness()
        let result = await cli.run("configure", "--region", "eu-west-1")
        #expect(result.status == .usage)
        #expect(result.stderr.contains("--user-pool-id"))
    }

    @Test func malformedConfigIsNamedAndNeverOverwritten() async throws {
        let cli = try CLIHarness()
        try FileManager.default.createDirectory(
            atPath: (cli.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let broken = #"{"version": 1, "profiles": {"a": {"region": 3}}}"#
        try broken.write(toFile: cli.configPath, atomically: false, encoding: .utf8)
        for arguments in [["profiles"], ["configure", "--user-pool-id", "us-east-1_X1", "--client-id", "c"]] {
            let result = await cli.run(arguments)
            #expect(result.status == .failure)
            #expect(result.stderr.contains(cli.configPath))
            #expect(result.stderr.contains("profiles.a.region"))
        }
        #expect(try cli.configText() == broken)

        try "{ not json".write(toFile: cli.configPath, atomically: false, encoding: .utf8)
        let result = await cli.run("configure", "--client-id", "c")
        #expect(result.stderr.contains("not valid JSON"))
        #expect(try cli.configText() == "{ not json")
    }

    @Test func newerConfigVersionIsRefused() async throws {
        let cli = try CLIHarness()
        try FileManager.default.createDirectory(
            atPath: (cli.configPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try #"{"version": 9, "profiles": {}}"#.write(toFile: cli.configPath, atomically: false, encoding: .utf8)
        let result = await cli.run("configure", "--user-pool-id", "us-east-1_X1", "--client-id", "c")
        #expect(result.status == .failure)
        #expect(result.stderr.contains("version 9"))
    }

    @Test func profilesListsAndMarksCurrent() async throws {
        let cli = try CLIHarness()
        let empty = await cli.run("profiles")
        #expect(empty.status == .success)
        #expect(empty.stderr.contains("No profiles yet"))
        _ = await cli.run("configure", "--user-pool-id", "us-east-1_A1", "--client-id", "a")
        _ = await cli.run("-p", "b", "configure", "--user-pool-id", "us-east-1_B1", "--client-id", "b")
        let table = await cli.run("profiles")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("   b "))
        #expect(lines[2].hasPrefix("*  default"))
        let json = await cli.run("--profile", "b", "profiles", "--json")
        let decoded =
            (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["profiles"]
            as? [[String: Any]]
        #expect(decoded?.count == 2)
        #expect(decoded?.first?["current"] as? Bool == true)
        #expect(decoded?.first?["issuer"] as? String == "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_B1")
    }
}

@Suite struct BinaryTests {
    @Test func theBuiltBinaryExitsWithDocumentedStatuses() throws {
        let binary = BuiltProducts.executable("authvault")
        let home = try TemporaryDirectory()
        let environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
        let version = try ProcessRunner.run(binary, ["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(version.stdoutText.hasPrefix("authvault "))
        let bad = try ProcessRunner.run(binary, ["--frobnicate"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderrText.contains("Unknown option"))
    }
}
