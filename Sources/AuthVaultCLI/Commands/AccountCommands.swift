import AuthVaultApp

// The account commands: signing up, confirming, resetting and changing passwords. Passwords and codes are
// asked without echo on a terminal; scripts give them with the flags below (standard input, never the command line,
// for a password), and a missing answer without a terminal is a usage error naming the flag. Nothing secret is printed.

/// Options several account commands share, declared once so their help reads the same everywhere.
enum AccountOption {
    static let username = OptionSpec.value(
        "username", short: "u", placeholder: "name",
        help: "The user name, e-mail or phone number (prompted for on a terminal).")
    static let passwordStdin = OptionSpec.flag(
        "password-stdin", help: "Read the password from the first line of standard input.")
    static let newPasswordStdin = OptionSpec.flag(
        "new-password-stdin",
        help: "Read the new password from the next line of standard input.")
    static let code = CodeOption("code", what: "the code Cognito sent")

    /// The options of an account command that pipes `piped` (in its order) and may take a user name and a code.
    static func answers(_ piped: (Question, OptionSpec)...) -> AnswerOptions {
        AnswerOptions(
            piped: piped.map { (question: $0.0, flag: $0.1) }, values: [.username: username, .code: code.value])
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
    static let email = OptionSpec.value(
        "email", placeholder: "address", help: "The e-mail address (the same as --attribute email=ADDRESS).")
    static let attribute = OptionSpec.repeatable(
        "attribute", placeholder: "name=value",
        help: "A user attribute, such as name=Alice or custom:team=ops.")
    static let name = "signup"
    static let spec = CommandSpec(
        name: name,
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
        let options = AccountOption.answers((.newPassword, AccountOption.passwordStdin))
        var answers = options.answers(arguments, context: context)
        let (username, result) = try await options.use(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.signUp(
                profile: context.profileName, attributes: attributes, answers: &answers)
        }
        context.standardError.line("Signed up \(username) (user \(ServerText.escaped(result.userSub))).")
        if result.userConfirmed {
            context.standardError.line(
                "The account is confirmed: sign in with \(Remedy.command("login", profile: context.profileName, "--password --username \(username)"))."
            )
        } else {
            let destination =
                result.codeDelivery.map { "Cognito sent a code to \(ServerText.escaped($0.summary))" }
                ?? "Confirm the account with the code Cognito sends"
            context.standardError.line("\(destination): run 'authvault confirm-signup --username \(username)'.")
        }
    }
}

/// `authvault confirm-signup`: confirms a new account with the code Cognito sent.
struct ConfirmSignUpCommand: CLICommand {
    static let name = "confirm-signup"
    static let spec = CommandSpec(
        name: name,
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
        let options = AccountOption.answers((.code, AccountOption.code.stdin))
        var answers = options.answers(arguments, context: context)
        let username = try await options.use(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.confirmSignUp(profile: context.profileName, answers: &answers)
        }
        context.standardError.line(
            "Confirmed \(username): sign in with \(Remedy.command("login", profile: context.profileName, "--password --username \(username)"))."
        )
    }
}

/// `authvault resend-code`: asks Cognito for a new sign-up confirmation code.
struct ResendCodeCommand: CodeRequestCommand {
    static let request = CodeRequest.signUpConfirmation
    static let sent = "a new code"
    static let next = "confirm-signup"
    static let name = "resend-code"
    static let spec = CommandSpec(
        name: name,
        abstract: "Send a new code to confirm an account.",
        discussion:
            "For an account that is signed up but not confirmed yet. Cognito limits how often codes are sent (exit status 1 with LimitExceeded).",
        options: [AccountOption.username])

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
    }
}

/// `authvault forgot-password`: starts a password reset; Cognito sends a code.
struct ForgotPasswordCommand: CodeRequestCommand {
    static let request = CodeRequest.passwordReset
    static let sent = "a reset code"
    static let next = "confirm-forgot-password"
    static let name = "forgot-password"
    static let spec = CommandSpec(
        name: name,
        abstract: "Start a password reset: Cognito sends a code to the account's e-mail or phone.",
        discussion:
            "Then set the new password with 'authvault confirm-forgot-password' and the code. Signing in is not needed.",
        options: [AccountOption.username])

    let arguments: ParsedArguments

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
    }
}

/// `authvault confirm-forgot-password`: sets a new password with the reset code.
struct ConfirmForgotPasswordCommand: CLICommand {
    static let name = "confirm-forgot-password"
    static let spec = CommandSpec(
        name: name,
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
        let options = AccountOption.answers(
            (.code, AccountOption.code.stdin), (.newPassword, AccountOption.newPasswordStdin))
        var answers = options.answers(arguments, context: context)
        let username = try await options.use(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.confirmForgotPassword(profile: context.profileName, answers: &answers)
        }
        context.standardError.line(
            "Set a new password for \(username): sign in with \(Remedy.command("login", profile: context.profileName, "--password --username \(username)"))."
        )
    }
}

/// `authvault change-password`: changes the signed-in user's password.
struct ChangePasswordCommand: CLICommand {
    static let name = "change-password"
    static let spec = CommandSpec(
        name: name,
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
        let options = AccountOption.answers(
            (.password, AccountOption.passwordStdin), (.newPassword, AccountOption.newPasswordStdin))
        var answers = options.answers(arguments, context: context)
        let user = try await options.use(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.changePassword(profile: context.profileName, answers: &answers)
        }
        context.standardError.line(
            "Changed the password of \(user.map { ServerText.escaped($0) } ?? "the signed-in user").")
    }
}

/// A command that names a user and has Cognito send them a code (`resend-code`, `forgot-password`), then says
/// where it went and which command takes it.
protocol CodeRequestCommand: CLICommand {
    /// What Cognito sends, as the line after it says it ("a new code").
    static var sent: String { get }
    /// The command that takes the code.
    static var next: String { get }
    static var request: CodeRequest { get }
    var arguments: ParsedArguments { get }
}

extension CodeRequestCommand {
    func run(in context: CommandContext) async throws(CLIError) {
        let options = AccountOption.answers()
        let answers = options.answers(arguments, context: context)
        let (username, delivery) = try await options.use(for: context.profileName) {
            () async throws(ApplicationError) in
            try await context.application.requestCode(Self.request, profile: context.profileName, answers: answers)
        }
        // "Cognito sent a new code to a***@e*** (EMAIL): run 'authvault confirm-signup --username alice'."
        let sent =
            delivery.map { "Cognito sent \(Self.sent) to \(ServerText.escaped($0.summary))" }
            ?? "Cognito sent \(Self.sent)"
        context.standardError.line("\(sent): run 'authvault \(Self.next) --username \(username)'.")
    }
}
