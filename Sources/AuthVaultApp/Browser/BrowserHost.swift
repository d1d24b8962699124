/// Where a browser for this session is, as the machine tells: a desktop here, Windows behind WSL, or the user's
/// own machine at the far end of an SSH session with no display. Read from the environment and the kernel's release
/// string, both passed in, so a test can stand anywhere.
public enum BrowserHost: Sendable, Equatable {
    /// A display or $BROWSER: open the browser here.
    case desktop
    /// Windows Subsystem for Linux: open the Windows browser (wslview, else explorer.exe).
    case wsl
    /// SSH without a display: the browser is on the user's machine; `server` is "ADDRESS PORT" of this end.
    case ssh(serverAddress: String?, serverPort: String?)
    /// Nothing tells where a browser could be.
    case none

    public static func detect(_ variables: EnvironmentVariables, osRelease: String?) -> BrowserHost {
        func set(_ name: String) -> Bool { !(variables[name] ?? "").isEmpty }
        if set("BROWSER") { return .desktop }
        if set("WSL_DISTRO_NAME") || osRelease?.lowercased().contains("microsoft") == true { return .wsl }
        if set("DISPLAY") || set("WAYLAND_DISPLAY") { return .desktop }
        if let connection = variables["SSH_CONNECTION"], !connection.isEmpty {
            // "CLIENT-ADDRESS CLIENT-PORT SERVER-ADDRESS SERVER-PORT"
            let fields = connection.split(separator: " ").map(String.init)
            return .ssh(
                serverAddress: fields.count == 4 ? fields[2] : nil, serverPort: fields.count == 4 ? fields[3] : nil)
        }
        // A login shell over SSH whose SSH_CONNECTION was not passed on (sudo, su) still has its SSH_TTY.
        if set("SSH_TTY") { return .ssh(serverAddress: nil, serverPort: nil) }
        return .none
    }

    /// The `ssh -L` line that forwards the listener's port from the user's machine to this one.
    public static func forwardingCommand(port: String, serverAddress: String?, serverPort: String?) -> String {
        let portOption = serverPort.map { $0 == "22" ? "" : " -p \($0)" } ?? ""
        let host = serverAddress ?? "THIS-HOST"
        return "ssh -L \(port):127.0.0.1:\(port)\(portOption) \(host)"
    }
}

extension BrowserHost {
    /// What tells where a browser is, read only when asked (a sign-in need worded, never a token served): the
    /// environment, and the caller's reader of the kernel's release string. Held by value: nothing is allocated for
    /// it on the way to a token.
    struct Source: Sendable {
        let environment: EnvironmentVariables?
        let kernelRelease: @Sendable () -> String?

        /// Where nothing is read (a session built in code): no browser is assumed.
        static let unknown = Source(environment: nil, kernelRelease: { nil })

        var host: BrowserHost { environment.map { BrowserHost.detect($0, osRelease: kernelRelease()) } ?? .none }
    }
}
