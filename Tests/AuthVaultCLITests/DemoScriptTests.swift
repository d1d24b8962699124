import Foundation
import TestSupport
import Testing

/// `make demo`'s script, run on the built binary: every step works, the browser step included (make test installs
/// Chromium and Playwright), no secret reaches its output, nothing but the main job is on the screen, and it leaves
/// nothing behind.
@Suite struct DemoScriptTests {
    @Test func theDemoRunsEndToEndAndCleansUp() async throws {
        let authvault = BuiltProducts.executable("authvault")
        let output = try await OffPool.run {
            try ProcessRunner.run(
                "/bin/bash", [PackageFiles.path("Scripts/demo.sh"), authvault],
                environment: ProcessInfo.processInfo.environment, timeout: 240)
        }
        let text = output.stdoutText + output.stderrText
        #expect(output.status == 0, "\(text)")
        for step in [
            "Signed in as demo", "State:      signed in as demo", "E-mail:     demo@example.com",
            "\"token_use\": \"access\"",
            "Refreshed the tokens of demo", "The access token changed.", "password=<token, redacted>",
            "through the agent", "The agent stopped on SIGTERM", "Signed in as fed@example.com via Google",
            "Federated:  Google:1122334455", "Revoked the refresh token.", "State:      signed out", "Demo finished",
        ] {
            #expect(text.contains(step), "the demo shows: \(step)")
        }
        expectNoSecrets(in: text, ["eyJ"], "no token (a JWT starts with eyJ) is printed")
        expectNoSecrets(in: text, ["Demo-Passw0rd!"], "the password never reaches the output")
        #expect(!text.contains("Some remote steps failed"), "the sign-out succeeds on the emulator: \(text)")
        // The screen shows the main job only: no notice of the clean-up's kills, no library's or build's warning.
        let noise = text.split(separator: "\n").filter { $0.contains("Killed") || $0.lowercased().contains("warning:") }
        #expect(noise.isEmpty, "\(noise)")
        let directory = try #require(text.firstMatch(of: /(\/tmp\/authvault-demo\.[A-Za-z0-9]+) removed/)?.1)
        #expect(!FileManager.default.fileExists(atPath: String(directory)), "its home directory is gone")
        let left = try ProcessRunner.run("/usr/bin/pgrep", ["-f", String(directory)], timeout: 10)
        #expect(left.stdoutText.isEmpty, "no process of the demo is left running")
    }
}
