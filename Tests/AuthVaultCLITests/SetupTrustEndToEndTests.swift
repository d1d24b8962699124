import Foundation
import TestSupport
import Testing

/// Issue 31 items 2 and 3 through the built binary: a copy of it where others can write records nothing in any
/// tool's file; HOME unset or relative is refused naming HOME; a name a tool would read as more than a name is
/// refused naming its option (exit 2). Every tool's file stays byte for byte as it was, or absent.
@Suite struct SetupTrustEndToEndTests {
    static let setups = [
        ["git", "--host", "git.example.com"], ["aws", "--aws-profile", "work"], ["kubectl"], ["vault"],
        ["docker", "--registry", "registry.example.com"],
    ]
    static let files = [
        ".gitconfig", ".aws/config", ".kube/config", ".vault", ".docker/config.json", "config/authvault/config.json",
    ]

    static func snapshot(_ home: SetupHome) -> [String: Data?] {
        Dictionary(uniqueKeysWithValues: files.map { ($0, FileManager.default.contents(atPath: home.path($0))) })
    }

    /// The built binary copied into `directory` of mode `mode`, with the Vault helper link beside it.
    static func copy(into directory: String, mode: Int, from home: SetupHome) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/authvault"
        try FileManager.default.copyItem(atPath: home.authvaultPath, toPath: copy)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/vault-token-helper-authvault", withDestinationPath: "authvault")
        chmod(directory, mode_t(mode))
        return copy
    }

    @Test func aCopyWhereOthersCanWriteIsRefusedAndASafeOneIsTaken() async throws {
        let home = try SetupHome()
        try home.write("[user]\n\tname = Someone\n", to: ".gitconfig")
        try home.write("[default]\nregion = us-east-1\n", to: ".aws/config")
        try home.write(SetupHome.kubeconfig, to: ".kube/config")
        let before = Self.snapshot(home)
        for (name, mode) in [("world", 0o777), ("group", 0o775)] {
            // As the kernel names it (the binary's own path comes from /proc/self/exe).
            let directory = (home.path("shared-\(name)/bin") as NSString).standardizingPath
            let copy = try Self.copy(into: directory, mode: mode, from: home)
            for setup in Self.setups {
                let run = try await BoundedProcess.run(copy, ["setup"] + setup, environment: home.environment)
                #expect(run.status == 1, "\(name) \(setup): \(run.status) \(run.stderrText)")
                #expect(
                    run.stderrText.contains("The tools would run \(directory)/")
                        && run.stderrText.contains("\(directory) has mode 0")
                        && run.stderrText.contains("lets other users change it")
                        && run.stderrText.contains("Nothing was changed"),
                    "\(name) \(setup): \(run.stderrText)")
                #expect(run.stdout.isEmpty)
            }
            #expect(Self.snapshot(home) == before, "\(name): every file as it was, none created")
        }
        let safe = try Self.copy(into: (home.path("mine/bin") as NSString).standardizingPath, mode: 0o755, from: home)
        let taken = try await BoundedProcess.run(
            safe, ["setup", "aws", "--aws-profile", "work"], environment: home.environment)
        #expect(taken.status == 0, "\(taken.stderrText)")
        #expect(try home.text(".aws/config").contains("credential_process = \(safe) --profile default aws-credentials"))
    }

    @Test func aHomeUnsetOrRelativeIsRefusedNamingHome() async throws {
        let home = try SetupHome()
        for value in [nil, "relative"] as [String?] {
            var environment = home.environment
            environment["HOME"] = value
            for setup in Self.setups {
                let run = try await BoundedProcess.run(home.authvaultPath, ["setup"] + setup, environment: environment)
                #expect(run.status == 1 && run.stderrText.contains("HOME is "), "\(setup): \(run.stderrText)")
            }
        }
        #expect(
            !FileManager.default.fileExists(atPath: "/.gitconfig")
                && !FileManager.default.fileExists(atPath: "/.aws/config"))
    }

    @Test func aDockerDirectoryLinkedWhereOthersCanWriteIsRefused() async throws {
        let home = try SetupHome()
        let shared = (home.path("shared") as NSString).standardizingPath
        try FileManager.default.createDirectory(atPath: shared + "/docker", withIntermediateDirectories: true)
        chmod(shared, 0o777)
        try FileManager.default.createSymbolicLink(
            atPath: home.path(".docker"), withDestinationPath: shared + "/docker")
        let before = Self.snapshot(home)
        let run = try await home.authvault(["setup", "docker", "--registry", "registry.example.com"])
        #expect(run.status == 1 && run.stderrText.contains("\(shared) has mode 0777"), "\(run.stderrText)")
        #expect(Self.snapshot(home) == before)
    }

    @Test(arguments: [
        (["aws", "--aws-profile", "x]\ncredential_process = /tmp/evil\n[profile y"], "--aws-profile"),
        (["kubectl", "--context", "prod\nusers:"], "--context"), (["kubectl", "--user", "me\nx"], "--user"),
        (["docker", "--registry", "registry.example.com\"x"], "--registry"),
        (["git", "--host", "git.example.com\n[core]"], "--host"),
    ])
    func aHostileNameIsRefusedNamingItsOption(setup: [String], option: String) async throws {
        let home = try SetupHome()
        try home.write("[default]\nregion = us-east-1\n", to: ".aws/config")
        try home.write(SetupHome.kubeconfig, to: ".kube/config")
        let before = Self.snapshot(home)
        let run = try await home.authvault(["setup"] + setup)
        #expect(run.status == 2, "\(run.stderrText)")
        #expect(
            run.stderrText.hasPrefix("\(option): ") || run.stderrText.contains("\n\(option): ")
                || run.stderrText.contains(" \(option): "),
            "\(run.stderrText)")
        #expect(!run.stderrText.contains("--helper-host"), "\(run.stderrText)")
        #expect(Self.snapshot(home) == before)
    }
}
