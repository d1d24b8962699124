import AuthCrypto
import AuthVaultApp
import CognitoAuth
import NetworkHosts

// The account commands: signing up, confirming, resetting and changing passwords. Passwords and codes are
// asked without echo on a terminal; scripts give them with the flags below (standard input, never the command line,
// for a password), and a missing answer without a terminal is a usage error naming the flag. Nothing secret is printed.

/// Options several account commands share, declared once so their help reads the same everywhere.
enum AccountOption {
    static let username = OptionSpec.value("username", short: "u", placeholder: "name",
                                           help: "The user name, e-mail or phone number (prompted for on a terminal).")
    static let passwordStdin = OptionSpec.flag("password-stdin", help: "Read the password from the first line of standard input.")
    static let newPasswordStdin = OptionSpec.flag("new-password-stdin",
                                                  help: "Read the new password from the next line of standard input.")
    static let code = CodeOption("code", what: "the code Cognito sent")
}

/// The answers an account command needs: from its flags and standard input (scripts) or the terminal (people).
struct AccountInput {
    private let arguments: ParsedArguments
    private let context: CommandContext
    private var piped: PipedAnswers

    /// - Parameters:
    ///   - stdinFlags: the command's `-stdin` options, in the order it asks them (one line each).
    ///   - repeating: those that may be asked again, a line each time (see `PipedAnswers`).
    init(arguments: ParsedArguments, context: CommandContext, stdinFlags: [OptionSpec] = [], repeating: [OptionSpec] = []) {
        self.arguments = arguments
        self.context = context
        piped = PipedAnswers(arguments: arguments, order: stdinFlags, repeating: repeating)
    }

    func username() throws(CLIError) -> String {
        if let name = arguments.value(AccountOption.username), !name.isEmpty { return name }
        guard context.isInteractive, let name = context.prompter.readLine(prompt: "Username: "), !name.isEmpty else {
            throw CLIError("No user name: pass --username NAME.", status: .usage)
        }
        return name
    }

    /// A password the user already has: the next line of standard input with `stdinFlag`, else asked once.
    mutating func password(_ stdinFlag: OptionSpec, prompt: String) throws(CLIError) -> SecretBytes {
        if let line = try pipedLine(stdinFlag) { return line }
        guard context.isInteractive, let password = context.prompter.readSecret(prompt: prompt), password.count > 0 else {
            throw CLIError("No terminal to ask for the password: pipe it in with --\(stdinFlag.long).", status: .usage)
        }
        return password
    }

    /// A password being chosen: the next line of standard input with `stdinFlag`, else asked twice.
    mutating func newPassword(_ stdinFlag: OptionSpec, prompt: String = "New password: ") throws(CLIError) -> SecretBytes {
        if let line = try pipedLine(stdinFlag) { return line }
        guard context.isInteractive else {
            throw CLIError("No terminal to ask for the new password: pipe it in with --\(stdinFlag.long).", status: .usage)
        }
        guard let first = context.prompter.readSecret(prompt: prompt), first.count > 0 else {
            throw CLIError("No password was entered.", status: .usage)
        }
        guard context.prompter.readSecret(prompt: "Repeat the password: ") == first else {
            throw CLIError("The two passwords differ; nothing was sent to Cognito.", status: .usage)
        }
        return first
    }

    /// A one-time code: a line of standard input with `--NAME-stdin`, else the value of `--NAME`, else asked
    /// without echo.
    mutating func code(_ option: CodeOption = AccountOption.code, prompt: String) throws(CLIError) -> SecretBytes {
        if let line = try pipedLine(option.stdin) { return line }
        if let code = arguments.value(option.value), !code.isEmpty { return SecretBytes(utf8: code) }
        guard context.isInteractive, let code = context.prompter.readSecret(prompt: prompt), code.count > 0 else {
            throw CLIError("No terminal to ask for the code: pipe it in with --\(option.stdin.long) (or pass --\(option.value.long) CODE).",
                           status: .usage)
        }
        return code
    }

    func isPiped(_ flag: OptionSpec) -> Bool {
        piped.isPiped(flag)
    }

    /// The line of standard input for `flag`; nil when the flag was not given.
    mutating func pipedLine(_ flag: OptionSpec) throws(CLIError) -> SecretBytes? {
        piped.isPiped(flag) ? try piped.answer(for: flag, from: context.standardInput) : nil
    }
}

extension CodeDeliveryDetails {
    /// "a***@e*** (EMAIL)", as Cognito masks it.
    var summary: String {
        let destination = destination ?? attributeName ?? "the account's contact"
        return medium.map { "\(destination) (\($0))" } ?? destination
    }
}

/// `authvault signup`: registers a user in the profile's user pool.
struct SignUpCommand: CLICommand {
    static let email = OptionSpec.value("email", placeholder: "address", help: "The e-mail address (the same as --attribute email=ADDRESS).")
    static let attribute = OptionSpec.repeatable("attribute", placeholder: "name=value",
                                                 help: "A user attribute, such as name=Alice or custom:team=ops.")
    static let spec = CommandSpec(
        name: "signup",
        abstract: "Create an account in the profile's user pool.",
        discussion: """
        The password is asked twice without echo on a terminal; scripts pipe it in with --password-stdin.
        Unless the pool confirms users by itself, Cognito sends a code to confirm the account with
        'authvault confirm-signup'; 'authvault resend-code' asks for another one.
        """,
        options: [AccountOption.username, AccountOption.passwordStdin, email, attribute])

    let arguments: ParsedArguments
    let attributes: [String: String]

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        var attributes: [String: String] = [:]
        for pair in arguments.values(Self.attribute) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError("Invalid value '\(pair)' for --attribute: expected name=value.")
            }
            attributes[parts[0]] = parts[1]
        }
        if let email = arguments.value(Self.email) { attributes["email"] = email }
        self.attributes = attributes
    }

    func run(in context: CommandContext) async throws(CLIError) {
        var input = AccountInput(arguments: arguments, context: context, stdinFlags: [AccountOption.passwordStdin])
        let session = try await ProfileSession.open(context)
        let username = try input.username()
        let password = try input.newPassword(AccountOption.passwordStdin, prompt: "Password for \(username): ")
        let result = try await session.call { client throws(CognitoError) in
            try await client.signUp(username: username, password: password, attributes: attributes)
        }
        context.standardError.line("Signed up \(username) (user \(ServerText.escaped(result.userSub))).")
        if result.userConfirmed {
            context.standardError.line("The account is confirmed: sign in with 'authvault login --password --username \(username)'.")
        } else {
            let destination = result.codeDelivery.map { "Cognito sent a code to \(ServerText.escaped($0.summary))" } ?? "Confirm the account with the code Cognito sends"
            context.standardError.line("\(destination): run 'authvault confirm-signup --username \(username)'.")
        }
    }
}

/// `authvault confirm-signup`: confirms a new account with the code Cognito sent.
struct ConfirmSignUpCommand: CLICommand {
    static let spec = CommandSpec(
        name: "confirm-signup",
        abstract: "Confirm a new account with the code Cognito sent.",
        discussion: """
        The code is asked without echo on a terminal; scripts pipe it in with --code-stdin (or pass --code, which
        other users of the machine can see). An expired code: run 'authvault resend-code'.
        """,
        options: [AccountOption.username] + AccountOption.code.options)

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        try AccountOption.code.checkNotBoth(arguments)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        var input = AccountInput(arguments: arguments, context: context, stdinFlags: [AccountOption.code.stdin])
        let session = try await ProfileSession.open(context)
        let username = try input.username()
        let code = try input.code(prompt: "Confirmation code for \(username): ")
        try await session.call { client throws(CognitoError) in try await client.confirmSignUp(username: username, code: code) }
        context.standardError.line("Confirmed \(username): sign in with 'authvault login --password --username \(username)'.")
    }
}

/// `authvault resend-code`: asks Cognito for a new sign-up confirmation code.
struct ResendCodeCommand: CodeRequestCommand {
    static let sent = "a new code"
    static let next = "confirm-signup"
    static let spec = CommandSpec(
        name: "resend-code",
        abstract: "Send a new code to confirm an account.",
        discussion: "For an account that is signed up but not confirmed yet. Cognito limits how often codes are sent (exit status 1 with LimitExceeded).",
        options: [AccountOption.username])

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
    }

    static func request(_ client: CognitoClient, username: String) async throws(CognitoError) -> CodeDeliveryDetails? {
        try await client.resendConfirmationCode(username: username)
    }
}

/// `authvault forgot-password`: starts a password reset; Cognito sends a code.
struct ForgotPasswordCommand: CodeRequestCommand {
    static let sent = "a reset code"
    static let next = "confirm-forgot-password"
    static let spec = CommandSpec(
        name: "forgot-password",
        abstract: "Start a password reset: Cognito sends a code to the account's e-mail or phone.",
        discussion: "Then set the new password with 'authvault confirm-forgot-password' and the code. Signing in is not needed.",
        options: [AccountOption.username])

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
    }

    static func request(_ client: CognitoClient, username: String) async throws(CognitoError) -> CodeDeliveryDetails? {
        try await client.forgotPassword(username: username)
    }
}

/// `authvault confirm-forgot-password`: sets a new password with the reset code.
struct ConfirmForgotPasswordCommand: CLICommand {
    static let spec = CommandSpec(
        name: "confirm-forgot-password",
        abstract: "Set a new password with the code from 'authvault forgot-password'.",
        discussion: """
        On a terminal the code and the new password (twice) are asked without echo. Scripts pipe them in: with
        both --code-stdin and --new-password-stdin, the code is the first line and the new password the second
        (--code puts the code on the command line, which other users of the machine can see). The profile's
        current session, if any, is left as it is.
        """,
        options: [AccountOption.username] + AccountOption.code.options + [AccountOption.newPasswordStdin])

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        try AccountOption.code.checkNotBoth(arguments)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        var input = AccountInput(arguments: arguments, context: context,
                                 stdinFlags: [AccountOption.code.stdin, AccountOption.newPasswordStdin])
        let session = try await ProfileSession.open(context)
        let username = try input.username()
        let code = try input.code(prompt: "Reset code for \(username): ")
        let newPassword = try input.newPassword(AccountOption.newPasswordStdin)
        try await session.call { client throws(CognitoError) in
            try await client.confirmForgotPassword(username: username, code: code, newPassword: newPassword)
        }
        context.standardError.line("Set a new password for \(username): sign in with 'authvault login --password --username \(username)'.")
    }
}

/// `authvault change-password`: changes the signed-in user's password.
struct ChangePasswordCommand: CLICommand {
    static let spec = CommandSpec(
        name: "change-password",
        abstract: "Change the signed-in user's password.",
        discussion: """
        Needs a session (exit status 3 without one). On a terminal the current password and the new one (twice)
        are asked without echo; scripts pipe them in: with both --password-stdin and --new-password-stdin, the
        current password is the first line and the new one the second. The session stays signed in.
        """,
        options: [AccountOption.passwordStdin, AccountOption.newPasswordStdin])

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
    }

    func run(in context: CommandContext) async throws(CLIError) {
        var input = AccountInput(arguments: arguments, context: context,
                                 stdinFlags: [AccountOption.passwordStdin, AccountOption.newPasswordStdin])
        let session = try await ProfileSession.open(context)
        let accessToken = try await session.accessToken()
        let current = try input.password(AccountOption.passwordStdin, prompt: "Current password: ")
        let proposed = try input.newPassword(AccountOption.newPasswordStdin)
        // Here NotAuthorized is most often the current password being wrong, so it is not read as "sign in again".
        try await session.call { client throws(CognitoError) in
            try await client.changePassword(accessToken: accessToken, previousPassword: current, proposedPassword: proposed)
        }
        let user = await session.store.sessionFacts()?.identity?.displayName
        context.standardError.line("Changed the password of \(user.map { ServerText.escaped($0) } ?? "the signed-in user").")
    }
}

extension ProfileSession {
    /// One call to Cognito, its failure mapped to the documented exit statuses (by `failure`).
    @discardableResult
    func call<Result>(
        _ body: (CognitoClient) async throws(CognitoError) -> Result,
        failure: (CognitoError) -> CLIError = { CLIErrors.from($0) }
    ) async throws(CLIError) -> Result {
        let client = try await cognitoClient()
        do { return try await body(client) } catch { throw failure(error) }
    }

    /// The session's access token, refreshed first when it is due; exit status 3 when there is no session.
    func accessToken() async throws(CLIError) -> SecretBytes {
        do { return try await store.validAccessToken() } catch { throw CLIErrors.from(error) }
    }

    /// A failure of a call made with the access token: Cognito refusing the token itself (revoked, or the user
    /// signed out everywhere) means signing in again.
    static func tokenCallError(_ error: CognitoError) -> CLIError {
        guard case .notAuthorized = error else { return CLIErrors.from(error) }
        let detail = error.serviceMessage.map { " (Cognito: \($0))" } ?? ""
        return CLIError("Cognito no longer accepts this session (it was revoked, or signed out everywhere): run 'authvault login'.\(detail)",
                        status: .signInRequired)
    }
}

/// A command that names a user and has Cognito send them a code (`resend-code`, `forgot-password`), then says
/// where it went and which command takes it.
protocol CodeRequestCommand: CLICommand {
    /// What Cognito sends, as the line after it says it ("a new code").
    static var sent: String { get }
    /// The command that takes the code.
    static var next: String { get }
    static func request(_ client: CognitoClient, username: String) async throws(CognitoError) -> CodeDeliveryDetails?
    var arguments: ParsedArguments { get }
}

extension CodeRequestCommand {
    func run(in context: CommandContext) async throws(CLIError) {
        let input = AccountInput(arguments: arguments, context: context)
        let session = try await ProfileSession.open(context)
        let username = try input.username()
        let delivery = try await session.call { client throws(CognitoError) in try await Self.request(client, username: username) }
        // "Cognito sent a new code to a***@e*** (EMAIL): run 'authvault confirm-signup --username alice'."
        let sent = delivery.map { "Cognito sent \(Self.sent) to \(ServerText.escaped($0.summary))" } ?? "Cognito sent \(Self.sent)"
        context.standardError.line("\(sent): run 'authvault \(Self.next) --username \(username)'.")
    }
}
