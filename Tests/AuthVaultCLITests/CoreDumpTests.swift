import CProcessControl
import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets stay out of core dumps: every `authvault` process is non-dumpable with a core-size limit of 0, and
/// `exec` hands its command the limit the user had.
@Suite struct CoreDumpTests {
    static let coreSize = __rlimit_resource_t(RLIMIT_CORE.rawValue)

    /// In this process, put back as it was afterwards.
    @Test func refusingLowersTheSoftLimitOnlyAndExecGetsItBack() throws {
        var before = rlimit()
        try #require(getrlimit(Self.coreSize, &before) == 0)
        defer {
            setrlimit(Self.coreSize, &before)
            authvault_set_dumpable(1)
        }
        CoreDumps.refuse()
        var refused = rlimit()
        getrlimit(Self.coreSize, &refused)
        #expect(authvault_get_dumpable() == 0)
        #expect(refused.rlim_cur == 0)
        #expect(refused.rlim_max == before.rlim_max, "the hard limit stays, so exec can give the soft one back")

        CoreDumps.restoreInheritedLimit()
        var restored = rlimit()
        getrlimit(Self.coreSize, &restored)
        #expect(restored.rlim_cur == before.rlim_cur)
    }

    /// The agent, holding the data key and the tokens, has a core-size limit of 0; and when its limit is raised
    /// from outside (prlimit, which any process of the user may run) and it crashes, it still dumps no core,
    /// where an ordinary process in the same directory does.
    @Test(.enabled(if: Self.coresGoToTheWorkingDirectory, "needs a core_pattern that writes a file, not a pipe"))
    func theAgentDumpsNoCoreEvenWithItsLimitRaised() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let directory = try TemporaryDirectory(prefix: "authvault-core")
        // Swift's crash backtracer would handle the signal itself; the kernel's default action is the point.
        let agent = try AgentProcess.start(
            cli.authvault, environment: cli.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 },
            log: cli.root + "/agent.log", currentDirectory: directory.path)
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")

        // Served through the agent (no passphrase here): it has unlocked the vault.
        let token = try await BoundedProcess.run(
            cli.authvault, ["token"],
            environment: cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" })
        #expect(token.status == 0, "\(token.stderrText) agent: \(agent.log)")
        let limits = try Self.coreLimits(pid: agent.pid)
        #expect(limits.soft == "0", "Max core file size: \(limits)")

        let raised = try ProcessRunner.run("prlimit", ["--pid", String(agent.pid), "--core=\(limits.hard):"])
        #expect(raised.status == 0, "\(raised.stderrText)")
        #expect(try Self.coreLimits(pid: agent.pid).soft == limits.hard)
        let signal = try await agent.terminate(with: SIGSEGV, timeout: 20)
        #expect(signal == SIGSEGV)
        #expect(Self.cores(in: directory.path).isEmpty, "the agent dumped core")

        let control = try TemporaryDirectory(prefix: "authvault-core-control")
        _ = try ProcessRunner.run(
            "/bin/sh", ["-c", "ulimit -S -c \(limits.hard); kill -SEGV $$"], currentDirectory: control.path)
        #expect(
            !Self.cores(in: control.path).isEmpty,
            "an ordinary process dumps core here, so the agent's absence of one counts")
        cli.expectNoSecretLeaks()
    }

    static var coresGoToTheWorkingDirectory: Bool {
        let pattern = (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)) ?? "|"
        return !pattern.hasPrefix("|") && !pattern.hasPrefix("/")
    }

    /// The "Max core file size" soft and hard limits of /proc/PID/limits, as written there.
    static func coreLimits(pid: Int32) throws -> (soft: String, hard: String) {
        let text = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Max core file size") })
        let columns = line.dropFirst("Max core file size".count).split(separator: " ")
        return (String(columns[0]), String(columns[1]))
    }

    static func cores(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("core") }
    }
}
