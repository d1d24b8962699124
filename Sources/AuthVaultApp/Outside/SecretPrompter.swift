import AuthCrypto

/// Asks a person for a secret or an answer; the command line passes its terminal, tests and libraries pass their own.
public protocol SecretPrompter: Sendable {
    /// Whether a person can answer a prompt (standard input and the controlling terminal are both a TTY).
    var isInteractive: Bool { get }
    /// Whether a secret can be typed on a terminal even while standard input is a pipe (as git and ssh ask on
    /// `/dev/tty`): a script that pipes a password in still has its vault passphrase asked there.
    var canAskForSecret: Bool { get }
    /// Asks on the terminal with echo off; `nil` when there is no terminal or the person pressed Ctrl-D.
    func readSecret(prompt: String) -> SecretBytes?
    /// Asks on the terminal with echo on (a user name, an MFA choice).
    func readLine(prompt: String) -> String?
}

/// The prompter when prompts are forbidden: nobody is there to answer.
public struct NoPrompter: SecretPrompter {
    public init() {}

    public var isInteractive: Bool { false }
    public var canAskForSecret: Bool { false }
    public func readSecret(prompt: String) -> SecretBytes? { nil }
    public func readLine(prompt: String) -> String? { nil }
}
