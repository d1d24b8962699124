import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// Issue 31 items 2, 3 and 8c: `setup` records only a program and files nobody else can replace, takes only names
/// the tool reads as names, refuses a HOME that is no absolute path, and changes git's file in one rename. Every
/// refusal leaves every file as it was.
@Suite struct ToolSetupTrustTests {
    static let everyRequest: [SetupRequest] = [
        .git(host: "git.example.com"), .docker(registry: "registry.example.com"),
        .kubectl(context: nil, user: nil), .aws(awsProfile: "work"), .vault,
    ]

    /// The fixture's files as they are: every tool's, and the configuration.
    static func snapshot(_ fixture: ToolSetupFixture) -> [String: String?] {
        let files = [
            ".gitconfig", ".docker/config.json", ".kube/config", ".aws/config", ".vault",
            "config/authvault/config.json",
        ]
        return Dictionary(uniqueKeysWithValues: files.map { ($0, fixture.text($0)) })
    }

    /// A copy of the stand-in binary (and the Vault helper link) in `directory` under the home, its mode `mode`.
    static func program(in fixture: ToolSetupFixture, directory: String, mode: Int) throws -> ToolSetup {
        let bin = fixture.home.appending(directory)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.executable, toPath: bin + "/authvault")
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/vault-token-helper-authvault", withDestinationPath: "authvault")
        chmod(bin, mode_t(mode))
        return ToolSetup(application: fixture.application, profile: "work", executable: bin + "/authvault")
    }

    @Test(arguments: [0o777, 0o775, 0o757])
    func aProgramInADirectoryOthersCanWriteIsNeverRecorded(mode: Int) throws {
        let fixture = try ToolSetupFixture()
        try fixture.write("[user]\n\tname = Someone\n", to: ".gitconfig", mode: 0o644)
        let before = Self.snapshot(fixture)
        let setup = try Self.program(in: fixture, directory: "shared/bin", mode: mode)
        for request in Self.everyRequest {
            #expect {
                try setup.apply(try setup.plan(request))
            } throws: { error in
                guard case SetupError.untrustedProgram(let path, _) = error else { return false }
                return path.hasPrefix(fixture.home.appending("shared/bin/"))
                    && "\(error)".contains("lets other users change it")
                    && "\(error)".contains("chmod")
            }
        }
        #expect(Self.snapshot(fixture) == before, "nothing was written, nothing created")
        // The undo obeys the same rules: a program others can replace undoes nothing either.
        #expect(throws: SetupError.self) { try setup.plan(.aws(awsProfile: "work"), undo: true) }
    }

    @Test func aProgramItselfOthersCanWriteIsRefusedAndASafeOneUnderStickyTmpIsTaken() throws {
        let fixture = try ToolSetupFixture()
        chmod(fixture.executable, 0o757)
        #expect(throws: SetupError.self) { try fixture.setup.plan(.aws(awsProfile: "work")) }
        chmod(fixture.executable, 0o755)
        // The home is under the sticky /tmp, which others may write: a directory of ours below it is safe.
        try fixture.apply(.aws(awsProfile: "work"))
        #expect(
            fixture.text(".aws/config")?.contains(
                "credential_process = \(fixture.executable) --profile work aws-credentials") == true)
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aProgramAnotherUserOwnsIsRefused() throws {
        let fixture = try ToolSetupFixture()
        let setup = try Self.program(in: fixture, directory: "theirs/bin", mode: 0o755)
        chown(fixture.home.appending("theirs"), 12345, 12345)
        #expect {
            try setup.plan(.git(host: "git.example.com"))
        } throws: { error in
            "\(error)".contains("belongs to user 12345") && "\(error)".contains(fixture.home.appending("theirs"))
        }
    }

    /// A `~/.docker` that is a link into a directory others can write is refused, not only a file others can write.
    @Test func aToolDirectoryThatLeadsWhereOthersCanWriteIsRefused() throws {
        let fixture = try ToolSetupFixture()
        let shared = fixture.home.appending("shared")
        try FileManager.default.createDirectory(atPath: shared + "/docker", withIntermediateDirectories: true)
        chmod(shared, 0o777)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.home.appending(".docker"), withDestinationPath: shared + "/docker")
        #expect {
            try fixture.apply(.docker(registry: "registry.example.com"))
        } throws: { error in
            guard case SetupError.untrusted(let refusal) = error else { return false }
            // Where the link leads, as the kernel names it.
            return refusal
                == .unsafePermissions(path: (shared as NSString).standardizingPath, mode: 0o40777, expected: 0o755)
        }
        #expect(!FileManager.default.fileExists(atPath: shared + "/docker/config.json"), "nothing was created there")
        #expect(try fixture.helperHosts() == [])
    }

    @Test(arguments: [nil, "", "relative/home"] as [String?])
    func aHomeThatIsNoAbsolutePathIsRefusedNamingHome(home: String?) throws {
        let fixture = try ToolSetupFixture()
        var environment = fixture.environment
        environment["HOME"] = home
        let setup = ToolSetup(
            application: Application(environment: EnvironmentVariables(environment)), profile: "work",
            executable: fixture.executable)
        for request in Self.everyRequest {
            #expect(throws: SetupError.homeUnusable(value: home.flatMap { $0.isEmpty ? nil : $0 })) {
                try setup.plan(request)
            }
        }
        #expect("\(SetupError.homeUnusable(value: nil))".contains("HOME is not set"))
        #expect(
            "\(SetupError.homeUnusable(value: "relative/home"))".contains(
                "HOME is 'relative/home', not an absolute path"))
    }

    @Test(arguments: [
        SetupRequest.aws(awsProfile: "x]\ncredential_process = /tmp/evil\n[profile y"), .aws(awsProfile: "a b"),
        .aws(awsProfile: ""),
        .aws(awsProfile: "x#y"), .kubectl(context: "prod\nusers:", user: nil), .kubectl(context: nil, user: "me\r"),
        .kubectl(context: nil, user: "a\"b"), .git(host: "git.example.com\n[core]"),
        .git(host: "git.example.com/a%2Fb"),
        .docker(registry: "registry.example.com\"x"), .docker(registry: "user@registry.example.com"),
    ])
    func namesThatCouldEndALineASectionOrAKeyAreRefused(request: SetupRequest) throws {
        let fixture = try ToolSetupFixture()
        try fixture.write("[default]\nregion = us-east-1\n", to: ".aws/config", mode: 0o600)
        try fixture.write(ToolSetupKubeconfigTests.kubeconfig, to: ".kube/config", mode: 0o600)
        let before = Self.snapshot(fixture)
        #expect {
            try fixture.apply(request)
        } throws: { error in
            guard case SetupError.invalidName = error else { return false }
            return true
        }
        #expect(Self.snapshot(fixture) == before)
    }

    /// A context whose cluster is not https gets no user: the plugin could check no server for it.
    @Test func aContextWhoseClusterIsNotHttpsIsRefused() throws {
        let fixture = try ToolSetupFixture()
        let plain = ToolSetupKubeconfigTests.kubeconfig.replacing(
            "https://kube.example.com:6443", with: "http://kube.example.com:6443")
        try fixture.write(plain, to: ".kube/config", mode: 0o600)
        #expect(throws: SetupError.clusterServerRefused(context: "prod", server: "http://kube.example.com:6443")) {
            try fixture.apply(.kubectl(context: "prod", user: nil))
        }
        #expect(fixture.text(".kube/config") == plain)
        #expect(try fixture.helperHosts() == [])
    }

    /// Without --context: the user alone, with provideClusterInfo, and no host listed.
    @Test func withoutAContextTheUserAloneAndNoHost() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(ToolSetupKubeconfigTests.kubeconfig, to: ".kube/config", mode: 0o600)
        let plan = try fixture.apply(.kubectl(context: nil, user: nil))
        #expect(plan.helperHost == nil)
        #expect(try fixture.helperHosts() == [])
        #expect(fixture.text(".kube/config")?.contains(#""provideClusterInfo": true"#) == true)
    }
}

/// git's configuration changes in one rename of a private copy's bytes: git itself never writes the user's file, so
/// an interruption between its two commands leaves the file, and the user's other helper for the host, as they were.
@Suite struct GitSetupInOneStepTests {
    /// Runs the real tools, recording each command, and stops (as a kill would) before the command numbered `stop`.
    final class Interrupting: ToolRunner, @unchecked Sendable {
        let stop: Int?
        private let lock = NSLock()
        private var calls: [[String]] = []
        init(stoppingAt stop: Int?) { self.stop = stop }

        var commands: [[String]] { lock.withLock { calls } }

        func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws(SetupError) -> ToolOutput
        {
            let count = lock.withLock {
                calls.append([tool] + arguments)
                return calls.count
            }
            if count == stop { throw .toolFailed(name: tool, arguments: arguments, status: 137, message: "killed") }
            return try SpawnedTool().run(tool, arguments, environment: environment)
        }
    }

    static let userFile = "[credential \"https://git.example.com\"]\n\thelper = store --file ~/.team-credentials\n"

    @Test func anInterruptedSetupLeavesTheUsersHelperWorking() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.userFile, to: ".gitconfig", mode: 0o644)
        try fixture.write("https://alice:from-the-store@git.example.com\n", to: ".team-credentials", mode: 0o600)
        // Plan: read the helpers (1), write the empty one (2), stopped before authvault's (3).
        let runner = Interrupting(stoppingAt: 3)
        let setup = ToolSetup(
            application: fixture.application, profile: "work", executable: fixture.executable, tools: runner)
        #expect(throws: SetupError.self) { try setup.apply(try setup.plan(.git(host: "git.example.com"))) }
        #expect(runner.commands.count == 3)
        #expect(fixture.text(".gitconfig") == Self.userFile, "the file is as it was")
        let fill = try ProcessRunner.run(
            "/usr/bin/git", ["credential", "fill"], stdin: Data("protocol=https\nhost=git.example.com\n\n".utf8),
            environment: fixture.environment)
        #expect(
            fill.stdoutText.contains("password=from-the-store"), "the user's helper still answers: \(fill.stderrText)")
    }

    @Test func everyGitCommandEditsAPrivateCopyAndTheFileIsReplacedOnce() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.userFile, to: ".gitconfig", mode: 0o644)
        let inode =
            try FileManager.default.attributesOfItem(atPath: fixture.home.appending(".gitconfig"))[.systemFileNumber]
            as? Int
        let runner = Interrupting(stoppingAt: nil)
        let setup = ToolSetup(
            application: fixture.application, profile: "work", executable: fixture.executable, tools: runner)
        let plan = try setup.plan(.git(host: "git.example.com"))
        #expect(plan.target == fixture.home.appending(".gitconfig"))
        try setup.apply(plan)
        for command in runner.commands {
            let file = try #require(command.firstIndex(of: "--file").map { command[$0 + 1] }, "\(command)")
            #expect(file.hasPrefix("/tmp/authvault-setup.") && !command.contains("--global"), "\(command)")
        }
        #expect(
            try FileManager.default.attributesOfItem(atPath: fixture.home.appending(".gitconfig"))[.systemFileNumber]
                as? Int != inode,
            "replaced by a rename")
        #expect(try fixture.mode(".gitconfig") == 0o644)
        let helpers = try fixture.run(
            "git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]
        ).text
        #expect(helpers == "\n!\(fixture.executable) --profile work git-credential\n")
        #expect(try setup.plan(.git(host: "git.example.com")).changesNothing)
    }
}
