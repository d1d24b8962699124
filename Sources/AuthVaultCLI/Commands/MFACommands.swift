import AuthVaultApp

/// `authvault mfa ...`: the signed-in user's second factors, as GetUser reports them and SetUserMFAPreference sets them.
enum MFACommands {
    static let group = CommandNode.group(
        name: "mfa",
        abstract: "Show and change the signed-in user's multi-factor authentication.",
        children: [
            .command(MFAStatusCommand.self),
            .command(MFASetupTOTPCommand.self),
            .command(MFAEnableCommand.self),
            .command(MFADisableCommand.self),
        ]
    )

    /// An option naming an MFA method by the words a person uses (`mfa --method`, `login --mfa-type`); absent, nil.
    static func methodOption(_ long: String, help: String, absent: String? = nil) -> TypedOption<MFAType?> {
        .optional(long, placeholder: methodPlaceholder, help: help, expected: methodsExpected, absent: absent) {
            MFAType(word: $0)
        }
    }

    /// The same with a default, which help shows by its word.
    static func methodOption(_ long: String, help: String, default type: MFAType) -> TypedOption<MFAType> {
        TypedOption(
            long, placeholder: methodPlaceholder, help: help, expected: methodsExpected, default: type,
            shown: type.word
        ) { MFAType(word: $0) }
    }

    private static let methodPlaceholder = "totp|sms|email"
    private static let methodsExpected = "totp, sms or email"
}

extension MFAType {
    /// "authenticator app (SOFTWARE_TOKEN_MFA)": the person's words, then Cognito's.
    var label: String {
        switch self {
        case .softwareToken: return "authenticator app (\(rawValue))"
        case .sms: return "SMS (\(rawValue))"
        case .email: return "e-mail (\(rawValue))"
        }
    }
}

/// `authvault mfa status`: the preferred and enabled factors, from GetUser.
struct MFAStatusCommand: CLICommand {
    static let json = JSONOutput.option("the factors, by Cognito's names", schema: "mfa-status")
    static let name = "status"
    static let spec = CommandSpec(
        name: name,
        abstract: "Show which MFA methods are enabled for the signed-in user, and which is preferred.",
        discussion: """
            Asks Cognito (GetUser) with the session's access token, so it needs a session (exit status 3 without one).
            Methods are shown as Cognito's UserMFASettingList and PreferredMfaSetting name them.
            """,
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let user = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.mfaStatus(profile: context.profileName)
        }
        if asJSON {
            try JSONOutput.write(MFAStatusReport(user), pretty: false, to: context.standardOutput)
            return
        }
        context.standardOutput.line("Preferred:  \(user.preferredMFA?.label ?? "none")")
        context.standardOutput.line(
            "Enabled:    \(user.enabledMFA.isEmpty ? "none" : user.enabledMFA.map(\.label).joined(separator: ", "))")
        if user.enabledMFA.isEmpty {
            context.standardError.line(
                "MFA is off: set up an authenticator app with \(Remedy.command("mfa setup-totp", profile: context.profileName))."
            )
        }
    }
}

/// `authvault mfa setup-totp`: adds an authenticator app and makes it the preferred factor.
struct MFASetupTOTPCommand: CLICommand {
    static let code = CodeOption("code", what: "the authenticator app's current code")
    static let authenticatorName = TypedOption<String>(
        "authenticator-name", placeholder: "name", help: "What Cognito calls the authenticator.",
        expected: "a name", default: "authvault"
    ) { $0 }
    static let name = "setup-totp"
    static let spec = CommandSpec(
        name: name,
        abstract: "Set up an authenticator app (TOTP) for the signed-in user and prefer it.",
        discussion: """
            Cognito makes a new secret (AssociateSoftwareToken); its otpauth:// URI and the base32 secret are shown on
            standard error for the authenticator app. The app's first code proves it works (VerifySoftwareToken), then
            the app becomes the enabled, preferred MFA method. On a terminal the code is asked without echo; a script
            pipes it in with --code-stdin, whose line is read only after the secret is shown (so the script can compute
            the code from it), or passes --code, which other users of the machine can see.
            """,
        options: code.options + [authenticatorName.spec],
        renamedOptions: [
            RenamedOption(
                former: "device-name", current: authenticatorName.spec,
                reason: "--device-name is the remembered device's name, on 'login'")
        ])

    let arguments: ParsedArguments
    let authenticatorName: String

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        authenticatorName = try arguments.value(Self.authenticatorName)
        try Self.code.checkNotBoth(arguments)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        var options = AnswerOptions(piped: [(.code, Self.code.stdin)], values: [.code: Self.code.value])
        options.codeNoun = "the authenticator's code"
        var answers = options.answers(arguments, context: context)
        try await options.use(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.setUpAuthenticator(
                profile: context.profileName, authenticatorName: authenticatorName, answers: &answers,
                show: { secret, account in
                    secret.show(accountName: account, profile: context.profileName, on: context.standardError)
                },
                wrongCode: { context.standardError.line("That code is not right; try again.") })
        }
        context.standardError.line("The authenticator app is set up and preferred: sign-in now asks for its code.")
    }
}

extension SoftwareTokenSecret {
    /// Shows the user their own authenticator secret, which they asked to set up, on standard error.
    func show(accountName: String, profile: String, on output: any TextOutput) {
        let uri = provisioningURI(accountName: accountName, issuer: "AuthVault \(profile)")
        output.line("Add this account to your authenticator app (scan the URI as a QR code, or type the secret):")
        output.line("  URI:    \(uri.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })")
        output.line("  secret: \(base32.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })")
    }
}

/// `authvault mfa enable`: turns an MFA method on and prefers it.
struct MFAEnableCommand: CLICommand {
    static let method = MFACommands.methodOption("method", help: "The method to turn on.", default: .softwareToken)
    static let name = "enable"
    static let spec = CommandSpec(
        name: name,
        abstract: "Turn an MFA method on for the signed-in user and make it the preferred one.",
        discussion: """
            The method must be usable already: an authenticator app verified with 'authvault mfa setup-totp' (which
            enables it by itself), or a verified phone number or e-mail address for sms and email.
            """,
        options: [method.spec])

    let type: MFAType

    init(arguments: ParsedArguments) throws(UsageError) {
        type = try arguments.value(Self.method)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.enableMFA(type, profile: context.profileName)
        }
        context.standardError.line("Enabled \(type.label) as the preferred MFA method.")
    }
}

/// `authvault mfa disable`: turns MFA methods off.
struct MFADisableCommand: CLICommand {
    static let method = MFACommands.methodOption("method", help: "The method to turn off.", absent: "every enabled one")
    static let name = "disable"
    static let spec = CommandSpec(
        name: name,
        abstract: "Turn MFA off for the signed-in user: one method, or every enabled one.",
        discussion: """
            Without --method, every method GetUser lists as enabled is turned off. A user pool that requires MFA
            refuses this. An authenticator app turned off can be turned on again with 'authvault mfa enable'.
            """,
        options: [method.spec])

    let type: MFAType?

    init(arguments: ParsedArguments) throws(UsageError) {
        type = try arguments.value(Self.method)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let disabled = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.disableMFA(type, profile: context.profileName) {
                context.standardError.line("Disabled \($0.label).")
            }
        }
        if disabled.isEmpty { context.standardError.line("No MFA method is enabled; nothing to turn off.") }
    }
}
