import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// Issue 33 item 6, in-process: `Application.reset` removes AuthVault's own configuration and data files, removes a
/// symbolic link in the data directory without following it out, and on a dry run changes nothing.
@Suite struct ResetTests {
    @Test func aLinkInTheDataDirectoryIsRemovedNeverFollowed() async throws {
        let fixture = try ToolSetupFixture()
        let data = fixture.home.appending(".local/share/authvault")
        let outside = fixture.home.appending("precious")
        try FileManager.default.createDirectory(atPath: data + "/locks", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: outside + "/keep", contents: Data("mine\n".utf8))
        _ = FileManager.default.createFile(atPath: data + "/locks/work.lock", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: data + "/elsewhere", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: data + "/locks/file", withDestinationPath: outside + "/keep")
        let request = ResetRequest(executable: fixture.executable, dryRun: true)

        let dry = await fixture.application.reset(request)
        #expect(dry.profiles.map(\.profile) == ["work"] && dry.profiles.allSatisfy { $0.revocation == nil })
        #expect(Set(dry.removed) == [fixture.application.configPath, data, fixture.home.appending("config/authvault")])
        #expect(
            FileManager.default.fileExists(atPath: data + "/locks/work.lock")
                && FileManager.default.fileExists(atPath: fixture.application.configPath))

        let report = await fixture.application.reset(ResetRequest(executable: fixture.executable, dryRun: false))
        #expect(report.notRemoved.isEmpty && report.agent == .notRunning, "\(report.notRemoved)")
        #expect(
            !FileManager.default.fileExists(atPath: data)
                && !FileManager.default.fileExists(atPath: fixture.application.configPath))
        #expect(!FileManager.default.fileExists(atPath: fixture.home.appending("config/authvault")))
        #expect(fixture.text("precious/keep") == "mine\n", "nothing outside was followed into")
    }

    @Test func aSetupThatCannotBeUndoneKeepsWhatTheNextResetNeeds() async throws {
        let fixture = try ToolSetupFixture()
        try fixture.apply(.vault)
        let vault = fixture.home.appending(".vault")
        let record = fixture.home.appending(".local/share/authvault/setup-changes.json")
        chmod(vault, 0o666)
        let refused = await fixture.application.reset(ResetRequest(executable: fixture.executable, dryRun: false))
        #expect(
            refused.setups.count == 1 && refused.setups[0].failure != nil && refused.keptForAnotherTry
                && !refused.isComplete)
        #expect(
            FileManager.default.fileExists(atPath: record)
                && FileManager.default.fileExists(atPath: fixture.application.configPath),
            "the record and the profile stay for the next try")
        chmod(vault, 0o600)
        let done = await fixture.application.reset(ResetRequest(executable: fixture.executable, dryRun: false))
        #expect(done.setups.count == 1 && done.setups[0].failure == nil && !done.keptForAnotherTry)
        #expect(!FileManager.default.fileExists(atPath: vault) && !FileManager.default.fileExists(atPath: record))
    }

    /// Only this user's agent is stopped: a process of another uid listening on the socket is left running.
    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv as root"))
    func anotherUsersProcessOnTheSocketIsNotStopped() async throws {
        let fixture = try ToolSetupFixture()
        let shared = try TemporaryDirectory(prefix: "reset-socket")
        chmod(shared.path, 0o777)
        let socket = shared.appending("agent.sock")
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        listener.arguments = [
            "--reuid", "65534", "--regid", "65534", "--clear-groups", "/usr/bin/python3", "-c",
            "import socket,sys,time; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); time.sleep(60)",
            socket,
        ]
        try listener.run()
        defer { listener.terminate() }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(FileManager.default.fileExists(atPath: socket), "the other user's process listens")
        let application = Application(
            environment: EnvironmentVariables(fixture.environment.merging(["AUTHVAULT_AGENT_SOCKET": socket]) { $1 }))
        let report = await application.reset(ResetRequest(executable: fixture.executable, dryRun: false))
        #expect(report.agent == .notRunning)
        #expect(listener.isRunning, "another user's process is not ours to stop")
    }
}
