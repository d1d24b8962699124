import AuthVaultApp
import SystemPlumbing

/// `authvault login --device`, the terminal's side of `DeviceSignIn`: the code shown at once on standard error,
/// Ctrl-C cancelling the wait, each outcome worded with what to do next.
struct TerminalDeviceSignIn {
    let session: ProfileSession
    let context: CommandContext
    /// Draws the address as a QR code where the terminal can show one.
    let qrCode: DeviceCodeQR

    func run() async throws(CLIError) -> SessionSummary {
        let output = context.standardError
        let signIn = DeviceSignIn(session: session)
        // Watching before anything is sent: a Ctrl-C at any moment cancels the task, even before it exists.
        let cancelled = Locked<(fired: Bool, task: Task<Result<SessionSummary, DeviceSignInError>, Never>?)>(
            (false, nil))
        let interrupt = InterruptWatch { _ in
            cancelled.withLock {
                $0.fired = true
                return $0.task
            }?.cancel()
        }
        defer { interrupt.stop() }
        let waiting = Task { () async -> Result<SessionSummary, DeviceSignInError> in
            do throws(DeviceSignInError) {
                return .success(
                    try await signIn.run { prompt in output.line(Self.instructions(prompt, qrCode: qrCode)) })
            } catch {
                return .failure(error)
            }
        }
        if cancelled.withLock({
            $0.task = waiting
            return $0.fired
        }) {
            waiting.cancel()
        }
        switch await waiting.value {
        case .success(let summary): return summary
        case .failure(let error): throw Self.cliError(error, profile: session.profile.name)
        }
    }

    /// Each address on a line of its own, its host named before it: the person checks where they are sent. The QR
    /// code holds the address that carries the code where there is one (a scan then needs no typing), and that
    /// address is printed too, whole, beside the code or above it.
    static func instructions(_ prompt: DeviceSignIn.Prompt, qrCode: DeviceCodeQR) -> String {
        let direct =
            prompt.verificationURIComplete.map { ["", "or open this address, which carries the code:", "", "  \($0)"] }
            ?? []
        let text =
            [
                "To sign in, open this address at \(prompt.verificationHost) in a browser on any device:", "",
                "  \(prompt.verificationURI)", "", "and enter the code:  \(prompt.userCode)",
            ] + direct
        // The address it opens is the last one printed above: no second copy to widen the text beside the code.
        let caption = ["or scan this code with a phone's camera (it opens the address above)."]
        let waiting =
            "Waiting for the sign-in to be approved (the code expires in \(TimeText.span(Double(prompt.expiresIn)))); Ctrl-C cancels."
        let scanned = prompt.verificationURIComplete ?? prompt.verificationURI
        return (qrCode.lines(text, caption: caption, drawing: scanned) + ["", waiting]).joined(separator: "\n")
    }

    static func cliError(_ error: DeviceSignInError, profile: String) -> CLIError {
        let login = { (options: String) in Remedy.command("login", profile: profile, options) }
        return switch error {
        case .cognitoHasNoDeviceGrant:
            CLIError(
                "\(error) Sign in on another machine with \(login("--paste")) (then paste the address its browser ends on), "
                    + "or with \(login("--no-browser")) and SSH port forwarding.", status: .usage)
        case .notOffered:
            CLIError(
                "\(error) Set one with \(Remedy.command("configure", profile: profile, "--device-authorization-url URL")), "
                    + "or use \(login("--paste")).", status: .usage)
        case .failed(let error): CLIErrors.from(error, profile: profile)
        case .denied: CLIError("\(error) Run \(login("--device")) again to retry.", status: .signInRequired)
        case .expired: CLIError("\(error) Run \(login("--device")) again for a new code.", status: .signInRequired)
        case .cancelled: CLIError("\(error) Nothing was stored.", status: .cancelled)
        case .tokensRejected(let reason): TerminalBrowserSignIn.rejectedTokens(reason, retry: login("--device"))
        }
    }
}
