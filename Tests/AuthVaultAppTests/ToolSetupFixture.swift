import AuthVaultApp
import Foundation
import TestSupport

/// A home directory with a configured profile `work`, a stand-in `authvault` binary with the helper links
/// `make install` makes, and `ToolSetup` over them running the real git and Debian's kubectl 1.20 (first on the
/// PATH, so no other kubectl is run: Debian 12's users have that one).
struct ToolSetupFixture {
    /// Debian's kubernetes-client, unpacked by Scripts/install-deps.sh.
    static let debianTools = PackageFiles.path(".build/debian-tools/usr/bin")

    let home: TemporaryDirectory
    let environment: [String: String]
    let executable: String

    init() throws {
        home = try TemporaryDirectory(prefix: "tool-setup")
        let bin = home.appending("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        executable = bin + "/authvault"
        _ = FileManager.default.createFile(
            atPath: executable, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/vault-token-helper-authvault", withDestinationPath: "authvault")
        environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appending("config"), "GIT_CONFIG_NOSYSTEM": "1",
            "PATH": Self.debianTools + ":/usr/bin:/bin",
        ]
        var work = ProfileSettings()
        work.userPoolId = "us-east-1_Work1"
        work.clientId = "client"
        work.identityPoolId = "us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6"
        try application.configStore.save(ConfigFile(profiles: ["work": work]))
    }

    var application: Application { Application(environment: EnvironmentVariables(environment)) }
    var setup: ToolSetup { setup(with: [:]) }

    /// The setup with more variables, each naming a path under the home directory (`searchPath`: the PATH).
    func setup(with variables: [String: String], searchPath: String? = nil) -> ToolSetup {
        var environment = environment.merging(variables.mapValues { home.appending($0) }) { $1 }
        if let searchPath { environment["PATH"] = searchPath }
        return ToolSetup(
            application: Application(environment: EnvironmentVariables(environment)), profile: "work",
            executable: executable)
    }

    /// Plans and applies `request`, returning the plan.
    @discardableResult
    func apply(_ request: SetupRequest, undo: Bool = false) throws -> SetupPlan {
        let plan = try setup.plan(request, undo: undo)
        try setup.apply(plan)
        return plan
    }

    func helperHosts() throws -> [String] {
        try application.configStore.load().profiles["work"]?.helperHosts ?? []
    }

    func write(_ text: String, to relative: String, mode: Int) throws {
        let path = home.appending(relative)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode])
    }

    func text(_ relative: String) -> String? {
        FileManager.default.contents(atPath: home.appending(relative)).map { String(decoding: $0, as: UTF8.self) }
    }

    func mode(_ relative: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: home.appending(relative))[.posixPermissions] as? Int ?? -1
    }

    /// A tool's command in this home, its standard output.
    func run(_ tool: String, _ arguments: [String]) throws -> ToolOutput {
        try SpawnedTool().run(tool, arguments, environment: environment)
    }
}
