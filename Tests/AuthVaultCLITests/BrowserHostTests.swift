import AuthVaultApp
import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// Where the browser is: WSL opens the Windows browser (wslview, else explorer.exe); SSH without a display prints
/// the `ssh -L` line for the registered port. Detected in-process from fake environments, then once each through
/// the binary.
@Suite struct BrowserHostTests {
    private func host(_ variables: [String: String], osRelease: String? = "6.1.0-13-amd64") -> BrowserHost {
        BrowserHost.detect(EnvironmentVariables(variables), osRelease: osRelease)
    }

    @Test func theHostIsToldFromTheEnvironmentAndTheKernelRelease() {
        #expect(host([:]) == .none)
        #expect(host(["DISPLAY": ":0"]) == .desktop)
        #expect(host(["WAYLAND_DISPLAY": "wayland-0"]) == .desktop)
        #expect(host(["WSL_DISTRO_NAME": "Debian"]) == .wsl)
        #expect(host([:], osRelease: "5.15.153.1-microsoft-standard-WSL2\n") == .wsl)
        #expect(
            host(["DISPLAY": ":0"], osRelease: "4.4.0-19041-Microsoft") == .wsl,
            "WSLg has a display: still the Windows browser")
        #expect(host(["BROWSER": "firefox", "WSL_DISTRO_NAME": "Debian"]) == .desktop, "$BROWSER is the user's choice")
        #expect(
            host(["SSH_CONNECTION": "203.0.113.9 50022 198.51.100.7 22"])
                == .ssh(serverAddress: "198.51.100.7", serverPort: "22"))
        #expect(
            host(["SSH_CONNECTION": "203.0.113.9 50022 198.51.100.7 22", "DISPLAY": "localhost:10.0"]) == .desktop,
            "X forwarding brings a display")
        #expect(host(["SSH_CONNECTION": "garbled"]) == .ssh(serverAddress: nil, serverPort: nil))
        #expect(
            host(["SSH_TTY": "/dev/pts/3"]) == .ssh(serverAddress: nil, serverPort: nil),
            "SSH_CONNECTION dropped by sudo or su")
    }

    @Test func theForwardingLineNamesThePortAndTheServer() {
        #expect(
            BrowserHost.forwardingCommand(port: "53682", serverAddress: "198.51.100.7", serverPort: "22")
                == "ssh -L 53682:127.0.0.1:53682 198.51.100.7")
        #expect(
            BrowserHost.forwardingCommand(port: "53682", serverAddress: "2001:db8::7", serverPort: "2222")
                == "ssh -L 53682:127.0.0.1:53682 -p 2222 2001:db8::7")
        #expect(
            BrowserHost.forwardingCommand(port: "8400", serverAddress: nil, serverPort: nil)
                == "ssh -L 8400:127.0.0.1:8400 THIS-HOST")
    }

    @Test func underWSLTheWindowsBrowserOpens() async throws {
        let bin = try TemporaryDirectory(prefix: "authvault-wsl-bin")
        func install(_ name: String, status: Int = 0) throws {
            try "#!/bin/sh\nexit \(status)\n".write(toFile: bin.appending(name), atomically: true, encoding: .utf8)
            chmod(bin.appending(name), 0o755)
        }
        try install("xdg-open")
        try install("explorer.exe", status: 1)
        let environment = ["PATH": bin.path]
        let explorer = try #require(ShellBrowserLauncher.choose(command: nil, environment: environment, onWSL: true))
        #expect(explorer.commandLine == "explorer.exe")
        let status = await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            if !explorer.open("https://example.com/", exited: { done.resume(returning: $0) }) {
                done.resume(returning: -1)
            }
        }
        #expect(status == 0, "explorer.exe exits 1 after opening the URL: no failure is reported")
        try install("wslview")
        #expect(
            ShellBrowserLauncher.choose(command: nil, environment: environment, onWSL: true)?.commandLine == "wslview")
        #expect(
            ShellBrowserLauncher.choose(command: nil, environment: environment, onWSL: false)?.commandLine == "xdg-open"
        )
        #expect(
            ShellBrowserLauncher.choose(command: "firefox", environment: environment, onWSL: true)?.commandLine
                == "firefox")
    }

    /// The binary under WSL: `wslview` on PATH (here a script that signs in at the Hosted UI stand-in) gets the
    /// authorize URL, and the sign-in completes.
    @Test func theBinarySignsInThroughWslview() async throws {
        let profile = try await BrowserProfile.make()
        let bin = try TemporaryDirectory(prefix: "authvault-wsl-bin")
        let browser = ScriptServer.scriptPath("oauth_server/scripted_browser.py")
        try "#!/bin/sh\nexec \(PeerPython.path) \(browser) \"$1\"\n".write(
            toFile: bin.appending("wslview"), atomically: true, encoding: .utf8)
        chmod(bin.appending("wslview"), 0o755)
        let login = try await profile.cli.run(
            ["login", "--browser", "--timeout", "60"],
            extraEnvironment: [
                "WSL_DISTRO_NAME": "Debian",
                "PATH": bin.path + ":" + (profile.cli.environment["PATH"] ?? "/usr/bin:/bin"),
                "TEST_BROWSER_MODE": "plain", "TEST_BROWSER_LOG": profile.browserLog,
                "TEST_BROWSER_USER": OAuthServer.federatedUser.username,
                "TEST_BROWSER_PASSWORD": OAuthServer.federatedUser.password,
            ])
        #expect(login.status == 0, "\(login.stderrText) \((try? profile.browserOutcome()) ?? [:])")
        #expect(login.stderrText.contains("Opening the browser"))
        #expect(login.stderrText.contains("Signed in as fed@example.com"))
        _ = try await profile.cli.storedRecord()
        profile.cli.expectNoSecretLeaks()
    }

    /// The binary over SSH on a terminal with no display: the URL and the `ssh -L` line for the port it listens on.
    @Test func overSSHTheBinarySaysHowToForwardThePort() async throws {
        let port = FreeLoopbackPorts.run(of: 1)[0]
        let cli = try HeadlessCLI()
        let configure = try await cli.run([
            "configure", "--user-pool-id", "eu-west-1_AbC123", "--client-id", "abc123",
            "--hosted-ui", "https://example.auth.eu-west-1.amazoncognito.com/",
            "--redirect-uri", "http://127.0.0.1:\(port)/callback", "--vault", "file",
        ])
        #expect(configure.status == 0, "\(configure.stderrText)")
        let run = try await cli.runOnTerminal(
            ["login", "--timeout", "2"], answers: [],
            extraEnvironment: ["SSH_CONNECTION": "203.0.113.9 50022 198.51.100.7 2222"])
        #expect(run.status == 1, "\(run.screen)")
        #expect(run.screen.contains("SSH session with no display"))
        #expect(run.screen.contains("ssh -L \(port):127.0.0.1:\(port) -p 2222 198.51.100.7"), "\(run.screen)")
        #expect(run.screen.contains("https://example.auth.eu-west-1.amazoncognito.com/oauth2/authorize?"))
        #expect(run.screen.contains("authvault login --profile default --paste"), "\(run.screen)")
    }
}
