import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// Issue 33 item 5: `--undo` puts back what `setup` replaced and removes only what it added, from the record of
/// what setup changed: a file that existed has its very bytes back, one that did not is gone again (with the
/// directory made for it), an entry another profile set up too is kept, an edit made since is kept, and the record
/// itself is private and trusted only when nobody else could have replaced it.
@Suite struct ToolSetupUndoTests {
    /// Each tool's file, as a person keeps it: comments, odd spacing, other entries, and a value setup replaces.
    static let files: [(request: SetupRequest, path: String, variables: [String: String], text: String)] = [
        (
            .git(host: "git.example.com"), ".gitconfig", [:],
            "# mine\n[user]\n  name=Someone   ; me\n\n[credential \"https://git.example.com\"]\n\thelper = cache\n[alias]\n\tco = checkout\n"
        ),
        (
            .docker(registry: "registry.example.com"), ".docker/config.json", [:],
            "{\n  \"auths\" : { \"other.example.com\": {} },\n   \"credHelpers\": {\"registry.example.com\": \"ecr-login\", \"x.example.com\": \"pass\"}\n}\n"
        ),
        (
            .aws(awsProfile: "dev"), ".aws/config", [:],
            "# AWS\n[default]\nregion=eu-west-1\n\n[ profile  dev ]\nregion = us-east-1\ncredential_process =   /old/tool --flag\n\n[profile other]\noutput = json\n"
        ),
        (
            .vault, ".vault", [:],
            "# Vault\naddress   =  \"https://vault.example.com:8200\"\ntoken_helper=\"/usr/bin/old-helper\"\n"
        ),
        (
            .kubectl(context: "prod", user: nil), "kube/config", ["KUBECONFIG": "kube/config"],
            "{\"apiVersion\": \"v1\",  \"kind\": \"Config\",\n\"clusters\": [{\"name\": \"prod\", \"cluster\": {\"server\": \"https://kube.example.com:6443\"}}],\n"
                + "  \"users\": [{\"name\": \"admin\", \"user\": {\"token\": \"not-a-real-token\"}}],\n"
                + "\"contexts\": [{\"name\": \"prod\", \"context\": {\"cluster\": \"prod\", \"user\": \"admin\"}}], \"current-context\": \"prod\"}\n"
        ),
    ]

    @Test(arguments: 0..<files.count)
    func theUndoPutsBackEveryByteOfAFileThatExisted(index: Int) throws {
        let (request, path, variables, text) = Self.files[index]
        let fixture = try ToolSetupFixture()
        try fixture.write(text, to: path, mode: 0o640)
        let setup = fixture.setup(with: variables)
        let plan = try setup.plan(request)
        try setup.apply(plan)
        #expect(fixture.text(path) != text, "setup changed the file")
        try setup.apply(try setup.plan(request, undo: true))
        #expect(fixture.text(path) == text, "the same bytes as before setup")
        #expect(try fixture.mode(path) == 0o640)
        #expect(try fixture.helperHosts() == [])
        #expect(fixture.text(".local/share/authvault/setup-changes.json") == nil, "nothing is left recorded")
        #expect(try setup.plan(request, undo: true).changesNothing, "a second undo changes nothing")
    }

    /// The undo checks the file's trust again just before it writes: a file, or its directory, made writable by
    /// others between the plan and its writing is refused with the command that fixes it, and nothing is written.
    @Test(arguments: 0..<files.count, [false, true])
    func aFileMadeWritableByOthersAfterThePlanIsRefusedBeforeTheUndoWrites(index: Int, directory: Bool) throws {
        let (request, path, variables, text) = Self.files[index]
        let fixture = try ToolSetupFixture()
        try fixture.write(text, to: path, mode: 0o600)
        let setup = fixture.setup(with: variables)
        try setup.apply(try setup.plan(request))
        let setUp = fixture.text(path)
        let record = fixture.text(".local/share/authvault/setup-changes.json")
        let plan = try setup.plan(request, undo: true)
        let opened = fixture.home.appending(directory ? (path as NSString).deletingLastPathComponent : path)
        chmod(opened, directory ? 0o777 : 0o666)
        defer { chmod(opened, directory ? 0o700 : 0o600) }

        #expect {
            try setup.apply(plan)
        } throws: { error in
            guard case SetupError.untrusted = error else { return false }
            return "\(error)".contains("fix it with: chmod")
        }
        #expect(fixture.text(path) == setUp, "nothing was undone")
        #expect(fixture.text(".local/share/authvault/setup-changes.json") == record, "the record still holds it")
    }

    @Test(arguments: 0..<files.count)
    func theUndoRemovesAFileSetupCreatedAndItsDirectory(index: Int) throws {
        let (named, path, variables, _) = Self.files[index]
        // No kubeconfig, so no context to name.
        let request = if case .kubectl = named { SetupRequest.kubectl(context: nil, user: nil) } else { named }
        let fixture = try ToolSetupFixture()
        let setup = fixture.setup(with: variables)
        try setup.apply(try setup.plan(request))
        #expect(fixture.text(path) != nil)
        let directory = fixture.home.appending((path as NSString).deletingLastPathComponent)
        let record = fixture.home.appending(".local/share/authvault/setup-changes.json")
        #expect(try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int == 0o600)
        #expect(
            try FileManager.default.attributesOfItem(atPath: (record as NSString).deletingLastPathComponent)[
                .posixPermissions] as? Int == 0o700)
        try setup.apply(try setup.plan(request, undo: true))
        #expect(!FileManager.default.fileExists(atPath: fixture.home.appending(path)), "no empty file left")
        if directory != fixture.home.path && directory != fixture.home.appending("") {
            #expect(!FileManager.default.fileExists(atPath: directory), "no empty directory left that was not there")
        }
    }

    /// `request` set up by profile work, then by profile team, in the file at `path` that held `original`.
    static func setUpByBoth(_ request: SetupRequest, in path: String, _ original: String) throws -> (
        ToolSetupFixture, work: ToolSetup, team: ToolSetup
    ) {
        let fixture = try ToolSetupFixture()
        try fixture.addProfile("team")
        try fixture.write(original, to: path, mode: 0o600)
        let work = fixture.setup
        let team = fixture.setup(profile: "team")
        try work.apply(try work.plan(request))
        try team.apply(try team.plan(request))
        return (fixture, work, team)
    }

    @Test func aDockerEntryAnotherProfileSetUpIsKeptUntilItsUndo() throws {
        let original = "{\"auths\": {}}\n"
        let (fixture, work, team) = try Self.setUpByBoth(
            .docker(registry: "registry.example.com"), in: ".docker/config.json", original)
        let both = fixture.text(".docker/config.json")
        let undo = try work.plan(.docker(registry: "registry.example.com"), undo: true)
        #expect(undo.notes == ["the entry stays: profile 'team' set it up too"])
        try work.apply(undo)
        #expect(fixture.text(".docker/config.json") == both, "profile team still uses the entry")
        #expect(try fixture.helperHosts() == [] && fixture.helperHosts(of: "team") == ["registry.example.com"])
        try team.apply(try team.plan(.docker(registry: "registry.example.com"), undo: true))
        #expect(fixture.text(".docker/config.json") == original)
    }

    @Test func aGitHostBothProfilesSetUpGoesBackToTheOtherProfile() throws {
        let original = "[user]\n\tname = Someone\n"
        let (fixture, work, team) = try Self.setUpByBoth(.git(host: "git.example.com"), in: ".gitconfig", original)
        try team.apply(try team.plan(.git(host: "git.example.com"), undo: true))
        let helpers = try fixture.run(
            "git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]
        ).text
        #expect(helpers == "\n!\(fixture.executable) --profile work git-credential\n", "profile work's helper is back")
        try work.apply(try work.plan(.git(host: "git.example.com"), undo: true))
        #expect(fixture.text(".gitconfig") == original)
    }

    @Test func anEditMadeSinceSetupIsKeptAndWhatSetupReplacedComesBack() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(
            "[default]\nregion = eu-west-1\ncredential_process = /old/tool\n", to: ".aws/config", mode: 0o600)
        try fixture.apply(.aws(awsProfile: "default"))
        try fixture.write((fixture.text(".aws/config") ?? "") + "output = json\n", to: ".aws/config", mode: 0o600)
        let undo = try fixture.apply(.aws(awsProfile: "default"), undo: true)
        #expect(undo.notes.contains { $0.contains("changed since setup") })
        #expect(
            fixture.text(".aws/config")
                == "[default]\nregion = eu-west-1\ncredential_process = /old/tool\noutput = json\n")
    }

    @Test func aGitHelperReplacedComesBackIntoAFileEditedSince() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write("[credential \"https://git.example.com\"]\n\thelper = cache\n", to: ".gitconfig", mode: 0o600)
        try fixture.apply(.git(host: "git.example.com"))
        _ = try fixture.run("git", ["config", "--global", "user.name", "Someone"])
        try fixture.apply(.git(host: "git.example.com"), undo: true)
        #expect(
            try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"])
                .text == "cache\n")
        #expect(
            try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n",
            "the edit made since is kept")
    }

    @Test func whileAnotherSetupStaysInTheFileTheReplacedValueComesBack() throws {
        let fixture = try ToolSetupFixture()
        let original = "[profile dev]\ncredential_process = /old/tool\n"
        try fixture.write(original, to: ".aws/config", mode: 0o600)
        try fixture.apply(.aws(awsProfile: "dev"))
        try fixture.apply(.aws(awsProfile: "ci"))
        try fixture.apply(.aws(awsProfile: "dev"), undo: true)
        let command = "\(fixture.executable) --profile work aws-credentials"
        #expect(fixture.text(".aws/config") == original + "\n[profile ci]\ncredential_process = \(command)\n")
        try fixture.apply(.aws(awsProfile: "ci"), undo: true)
        #expect(fixture.text(".aws/config") == original)
    }

    @Test(arguments: [0o644, 0o666])
    func aRecordOthersCouldReadOrChangeIsNotTrusted(mode: Int) throws {
        let fixture = try ToolSetupFixture()
        try fixture.apply(.vault)
        let record = fixture.home.appending(".local/share/authvault/setup-changes.json")
        chmod(record, mode_t(mode))
        #expect(throws: SetupError.self) { try fixture.setup.plan(.vault, undo: true) }
        #expect(fixture.text(".vault") != nil, "nothing was undone")
    }

    @Test func awsForAProfileWithoutAnIdentityPoolIsRefusedUpFront() throws {
        let fixture = try ToolSetupFixture()
        try fixture.addProfile("team", identityPool: false)
        #expect(throws: SetupError.noIdentityPool(profile: "team")) {
            try fixture.setup(profile: "team").plan(.aws(awsProfile: "team"))
        }
        #expect(fixture.text(".aws/config") == nil)
    }

    @Test func aContextWithAnEmptyUserIsNotSaidToHaveHadOne() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(
            "{\"apiVersion\": \"v1\", \"kind\": \"Config\", \"clusters\": [{\"name\": \"c\", \"cluster\": {\"server\": \"https://k.example.com\"}}],"
                + " \"contexts\": [{\"name\": \"prod\", \"context\": {\"cluster\": \"c\", \"user\": \"\"}}]}\n",
            to: ".kube/config", mode: 0o600)
        let plan = try fixture.setup.plan(.kubectl(context: "prod", user: nil))
        #expect(plan.changes.contains("context prod: user authvault-work"), "\(plan.changes)")
        #expect(!plan.changes.contains { $0.contains("(was )") })
    }
}

extension ToolSetupFixture {
    func addProfile(_ name: String, identityPool: Bool = true) throws {
        var settings = ProfileSettings()
        settings.userPoolId = "us-east-1_Team1"
        settings.clientId = "client"
        if identityPool { settings.identityPoolId = "us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6" }
        try application.configStore.update { (file: inout ConfigFile) throws(ConfigError) in
            file.profiles[name] = settings
        }
    }

    func setup(profile: String) -> ToolSetup {
        ToolSetup(application: application, profile: profile, executable: executable)
    }

    func helperHosts(of profile: String) throws -> [String] {
        try application.configStore.load().profiles[profile]?.helperHosts ?? []
    }
}
