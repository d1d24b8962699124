import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `setup docker|aws|vault`: the tool's file edited in place of a person: that one entry, every other line and key
/// kept, the mode kept (a new file 0600 in a new 0700 directory), nothing written on a dry run (a plan not applied),
/// nothing changed the second time, and the undo taking back exactly what was added.
@Suite struct ToolSetupFileTests {
    @Test func dockerCreatesAPrivateConfigAndTheSecondRunChangesNothing() throws {
        let fixture = try ToolSetupFixture()
        let dryRun = try fixture.setup.plan(.docker(registry: "Registry.Example.com:5000"))
        #expect(dryRun.changes == [#"credHelpers["registry.example.com:5000"] = "authvault""#])
        #expect(dryRun.helperHost == .add("registry.example.com:5000"))
        #expect(fixture.text(".docker/config.json") == nil, "planning writes nothing")
        #expect(try fixture.helperHosts() == [])

        try fixture.setup.apply(dryRun)
        #expect(try fixture.mode(".docker") == 0o700)
        #expect(try fixture.mode(".docker/config.json") == 0o600)
        let writtenText = try #require(fixture.text(".docker/config.json"))
        let written = try JSONSerialization.jsonObject(with: Data(writtenText.utf8)) as? [String: Any]
        #expect(written?["credHelpers"] as? [String: String] == ["registry.example.com:5000": "authvault"])
        #expect(try fixture.helperHosts() == ["registry.example.com:5000"])
        #expect(try fixture.setup.plan(.docker(registry: "registry.example.com:5000")).changesNothing)
    }

    @Test func dockerKeepsEveryOtherKeyAndTheModeAndUndoes() throws {
        let fixture = try ToolSetupFixture()
        let original =
            #"{"auths":{"old.example.com":{}},"credHelpers":{"gcr.io":"gcloud"},"credsStore":"pass","proxies":{"default":{"httpProxy":"http://p:3128"}}}"#
        let setup = fixture.setup(with: ["DOCKER_CONFIG": "docker"])
        try fixture.write(original, to: "docker/config.json", mode: 0o640)
        try setup.apply(try setup.plan(.docker(registry: "registry.example.com")))
        #expect(try fixture.mode("docker/config.json") == 0o640)
        let text = try #require(fixture.text("docker/config.json"))
        let written = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        var wanted = expected
        wanted["credHelpers"] = ["gcr.io": "gcloud", "registry.example.com": "authvault"]
        #expect(written == wanted as NSDictionary)
        #expect(try setup.plan(.docker(registry: "registry.example.com")).changesNothing)

        let undo = try setup.plan(.docker(registry: "registry.example.com"), undo: true)
        #expect(undo.helperHost == .remove("registry.example.com"))
        try setup.apply(undo)
        let undoneText = try #require(fixture.text("docker/config.json"))
        let undone = try #require(try JSONSerialization.jsonObject(with: Data(undoneText.utf8)) as? NSDictionary)
        #expect(undone == expected as NSDictionary)
        #expect(try fixture.helperHosts() == [])
        #expect(try setup.plan(.docker(registry: "registry.example.com"), undo: true).changesNothing)
    }

    @Test func dockerLeavesAFileItCannotReadAsJSONAlone() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write("{ not json", to: ".docker/config.json", mode: 0o600)
        #expect(
            throws: SetupError.malformed(
                path: fixture.home.appending(".docker/config.json"), problem: "not a JSON object")
        ) {
            try fixture.apply(.docker(registry: "registry.example.com"))
        }
        #expect(fixture.text(".docker/config.json") == "{ not json")
        #expect(try fixture.helperHosts() == [], "nothing changed in the profile either")
    }

    @Test func awsReplacesOnlyThatKeyOfThatSection() throws {
        let fixture = try ToolSetupFixture()
        let original = """
            # my AWS config
            [default]
            region = eu-west-1

            [profile work]
            region = us-east-1
            credential_process = /old/tool --flag
            s3 =
              max_concurrent_requests = 4

            [profile other]
            credential_process = /other/tool

            """
        try fixture.write(original, to: ".aws/config", mode: 0o644)
        let plan = try fixture.apply(.aws(awsProfile: "work"))
        let command = "\(fixture.executable) --profile work aws-credentials"
        #expect(plan.changes == ["[profile work] credential_process = \(command) (was /old/tool --flag)"])
        #expect(
            fixture.text(".aws/config")
                == original.replacing("credential_process = /old/tool --flag", with: "credential_process = \(command)"))
        #expect(try fixture.mode(".aws/config") == 0o644)
        #expect(try fixture.setup.plan(.aws(awsProfile: "work")).changesNothing)
    }

    @Test func awsAddsASectionAndTheUndoTakesBackTheKey() throws {
        let fixture = try ToolSetupFixture()
        let original = "[default]\nregion = eu-west-1\n"
        try fixture.write(original, to: ".aws/config", mode: 0o600)
        let dryRun = try fixture.setup.plan(.aws(awsProfile: "ci"))
        #expect(fixture.text(".aws/config") == original, "planning writes nothing")
        try fixture.setup.apply(dryRun)
        let command = "\(fixture.executable) --profile work aws-credentials"
        #expect(fixture.text(".aws/config") == original + "\n[profile ci]\ncredential_process = \(command)\n")
        try fixture.apply(.aws(awsProfile: "default"))
        #expect(
            fixture.text(".aws/config")
                == "[default]\nregion = eu-west-1\ncredential_process = \(command)\n\n[profile ci]\ncredential_process = \(command)\n"
        )
        try fixture.apply(.aws(awsProfile: "default"), undo: true)
        #expect(fixture.text(".aws/config") == original + "\n[profile ci]\ncredential_process = \(command)\n")
    }

    @Test func vaultPointsTheTokenHelperAtTheLinkBesideTheBinary() throws {
        let fixture = try ToolSetupFixture()
        let original = "address = \"https://vault.example.com:8200\"\ntoken_helper = \"/usr/bin/old-helper\"\n"
        try fixture.write(original, to: ".vault", mode: 0o600)
        let helper = fixture.home.appending("bin/vault-token-helper-authvault")
        try fixture.apply(.vault)
        #expect(
            fixture.text(".vault") == "address = \"https://vault.example.com:8200\"\ntoken_helper = \"\(helper)\"\n")
        #expect(try fixture.setup.plan(.vault).changesNothing)
        try fixture.apply(.vault, undo: true)
        #expect(fixture.text(".vault") == original, "the token helper it replaced is back")
    }

    @Test func vaultRefusesAHelperLinkThatIsNotThere() throws {
        let fixture = try ToolSetupFixture()
        try FileManager.default.removeItem(atPath: fixture.home.appending("bin/vault-token-helper-authvault"))
        #expect(throws: SetupError.helperLinkMissing(path: fixture.home.appending("bin/vault-token-helper-authvault")))
        {
            try fixture.apply(.vault)
        }
        #expect(fixture.text(".vault") == nil)
    }

    @Test func aProfileThatDoesNotExistIsWiredNowhere() throws {
        let fixture = try ToolSetupFixture()
        let setup = ToolSetup(application: fixture.application, profile: "missing", executable: fixture.executable)
        #expect(throws: SetupError.self) { try setup.plan(.aws(awsProfile: "work")) }
        #expect(fixture.text(".aws/config") == nil)
    }
}
