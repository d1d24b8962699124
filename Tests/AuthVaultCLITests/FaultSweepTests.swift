import Foundation
import TestSupport
import Testing

/// The fault matrix's leak sweep can fail: it sees a secret a child was given and a core file, and AuthVault leaves
/// no core even when killed by a core-dumping signal in the middle of a refresh with the core-size limit raised.
@Suite struct FaultSweepTests {
    /// Without leaving out the variable `exec` fills by design, the copy of the child's environment holds the token,
    /// and the sweep says so; a file named like a core is reported too.
    @Test func theSweepSeesWhatAChildWasGivenAndCoreFiles() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let capture = try ChildCapture(directory: cli.root + "/home/unfiltered-captures")
        let exec = try await cli.run(["exec", "--env", "API_TOKEN", "--", capture.script, "true"])
        #expect(exec.status == 0, "\(exec.stderrText)")
        _ = try await cli.storedRecord()
        let childLeaks = cli.secretLeaks().filter {
            $0.contains("/home/unfiltered-captures/") && $0.contains(".environ")
        }
        #expect(!childLeaks.isEmpty, "the sweep saw the token in the child's environment")

        try Data().write(to: URL(fileURLWithPath: cli.root + "/home/core"))
        #expect(cli.secretLeaks().contains { $0.hasPrefix("a core file") })
    }

    /// SIGQUIT (core action) while `token` waits for a stalled refresh, started with the core-size limit raised in
    /// the isolated home: the process dies by the signal and leaves no core file (it made itself non-dumpable).
    @Test(
        .enabled(
            if: SecretScan.corePattern.hasPrefix("core"), "kernel.core_pattern is not a file in the working directory"))
    func aCoreDumpingSignalMidRefreshLeavesNoCore() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        try await cli.ageTokens(expiringIn: -120)
        try await profile.proxy.inject(Array(repeating: .stall(seconds: 25), count: 4))
        let home = cli.environment["HOME"]!
        // SIGQUIT unblocked and at its default action (the test runner's children inherit a mask and dispositions
        // that keep some signals away), the core-size limit at its hard limit, the working directory where
        // core_pattern "core" would put the file.
        let launcher = """
            import os, resource, signal, sys
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            signal.signal(signal.SIGQUIT, signal.SIG_DFL)
            hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
            resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
            os.chdir(sys.argv[1])
            os.execv(sys.argv[2], [sys.argv[2], "token"])
            """
        // Without the Swift runtime's backtracer, which catches SIGQUIT itself and exits instead of dumping core.
        let environment = cli.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let victim = try InteractiveProcess(
            "/usr/bin/python3", ["-c", launcher, home, cli.authvault], environment: environment)
        // Into the refresh: the proxy has the call.
        var waits = 0
        while try await profile.proxy.records().last?.fault != "stall", waits < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waits += 1
        }
        let reachedRefresh = victim.isRunning
        victim.kill(signal: SIGQUIT)
        let killedBySignal = victim.terminationSignal == SIGQUIT
        try await profile.proxy.inject([])
        let facts: [FaultFact] = [
            ("killed inside the refresh", reachedRefresh && killedBySignal),
            ("next token refreshes", try await FileAndKeyFaultTests.givesAMotoToken(profile)),
        ]
        try await FileAndKeyFaultTests.record(
            "SIGQUIT mid-refresh with the core limit raised (no core file)", facts, profile)
    }
}
