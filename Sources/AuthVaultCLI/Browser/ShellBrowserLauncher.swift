import AuthVaultApp
import Dispatch
import SystemPlumbing

#if canImport(Glibc)
    import Glibc
    import SystemPlumbing
#endif

/// Opens a URL in the user's browser: `--browser-command` (the URL appended as its last argument), else `$BROWSER`
/// (a colon-separated list whose `%s` stands for the URL, by that variable's convention), else under WSL the Windows
/// browser (`wslview`, else `explorer.exe`), else `xdg-open`. The browser gets the environment without AuthVault's own variables (a vault
/// passphrase must not reach it), in a session of its own so a Ctrl-C at the terminal does not close it.
struct ShellBrowserLauncher: BrowserLauncher {
    /// A shell command line; the URL is passed as its last argument, or in place of `%s` when `substitutes`.
    let commandLine: String
    let substitutes: Bool
    /// Where the command came from, for messages.
    let source: String
    let environment: [String: String]
    /// explorer.exe exits with status 1 when it has opened the URL: its status says nothing, and is reported as 0.
    var exitStatusMeansFailure = true

    /// - Returns: nil when there is no way to open a browser (no command, no `$BROWSER`, no xdg-open on PATH).
    static func choose(command: String?, environment: [String: String], onWSL: Bool = false) -> ShellBrowserLauncher? {
        let childEnvironment = ChildProcess.environment(from: environment)
        if let command, !command.isEmpty {
            return ShellBrowserLauncher(
                commandLine: command, substitutes: false, source: "--browser-command", environment: childEnvironment)
        }
        if let browsers = environment["BROWSER"], let first = browsers.split(separator: ":").first {
            return ShellBrowserLauncher(
                commandLine: String(first), substitutes: true, source: "$BROWSER", environment: childEnvironment)
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        func onPath(_ name: String) -> Bool {
            path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
        }
        if onWSL {
            if onPath("wslview") {
                return ShellBrowserLauncher(
                    commandLine: "wslview", substitutes: false, source: "wslview", environment: childEnvironment)
            }
            if onPath("explorer.exe") {
                return ShellBrowserLauncher(
                    commandLine: "explorer.exe", substitutes: false, source: "explorer.exe",
                    environment: childEnvironment,
                    exitStatusMeansFailure: false)
            }
        }
        guard onPath("xdg-open") else { return nil }
        return ShellBrowserLauncher(
            commandLine: "xdg-open", substitutes: false, source: "xdg-open", environment: childEnvironment)
    }

    /// glibc's POSIX_SPAWN_SETSID (<spawn.h>, 2.26+), hidden from Swift behind _GNU_SOURCE.
    private static let spawnSetSID: Int32 = 0x80

    /// Starts the browser without waiting for it. `exited` is called with its exit status when it ends (a
    /// browser command that fails at once is worth a word; one that keeps running is normal).
    func open(_ url: String, exited: @escaping @Sendable (Int32) -> Void) -> Bool {
        // The URL travels as "$1", never spliced into the shell text.
        let script =
            substitutes && commandLine.contains("%s")
            ? commandLine.replacing("%s", with: "\"$1\"") : commandLine + " \"$1\""
        let arguments = ["/bin/sh", "-c", script, "authvault-browser", url]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Browsers chatter on their output; the terminal is ours.
        for descriptor in [Int32(0), 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        let spawned = SpawnAttributes.with(defaultSignals: [SIGINT, SIGTERM, SIGPIPE], flags: Self.spawnSetSID) {
            attributes in
            CStringArrays.with(arguments, environment) { argv, envp in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
            }
        }
        guard spawned == 0 else { return false }
        let child = pid
        DispatchQueue.global().async {
            var status: Int32 = 0
            _ = try? SystemCall.retryingInterrupts("waitpid") { waitpid(child, &status, 0) }
            exited(exitStatusMeansFailure ? SpawnAttributes.exitStatus(ofWaitStatus: status) : 0)
        }
        return true
    }
}
