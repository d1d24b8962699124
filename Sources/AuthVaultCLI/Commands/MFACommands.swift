import AuthCrypto
import AuthVaultApp
import CognitoAuth

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
        .optional(long, placeholder: methodPlaceholder, help: help, expected: methodsExpected, absent: absent) { types[$0] }
    }

    /// The same with a default, which help shows by its word.
    static func methodOption(_ long: String, help: String, default type: MFAType) -> TypedOption<MFAType> {
        TypedOption(long, placeholder: methodPlaceholder, help: help, expected: methodsExpected, default: type,
                    shown: type.word) { types[$0] }
    }

    static let types: [String: MFAType] = ["totp": .softwareToken, "sms": .sms, "email": .email]
    private static let methodPlaceholder = "totp|sms|email"
    private static let methodsExpected = "totp, sms or email"

    /// Turns one factor on or off through SetUserMFAPreference.
    static func set(_ type: MFAType, to preference: MFAPreference, accessToken: SecretBytes,
                    client: CognitoClient) async throws(CognitoError) {
        switch type {
        case .softwareToken: try await client.setMFAPreference(accessToken: accessToken, softwareToken: preference)
        case .sms: try await client.setMFAPreference(accessToken: accessToken, sms: preference)
        case .email: try await client.setMFAPreference(accessToken: accessToken, email: preference)
        }
    }
}

extension MFAType {
    /// The word a person uses for it on the command line: totp, sms, email.
    var word: String {
        MFACommands.types.first { $0.value == self }?.key ?? rawValue
    }

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
    static let json = OptionSpec.flag("json", help: #"Print {"preferred": ..., "enabled": [...]} with Cognito's names."#)
    static let spec = CommandSpec(
        name: "status",
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

    private struct Report: Encodable {
        let preferred: String?
        let enabled: [String]
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let session = try await ProfileSession.open(context)
        let accessToken = try await session.accessToken()
        let user = try await session.call({ client throws(CognitoError) in try await client.user(accessToken: accessToken) },
                                          failure: ProfileSession.tokenCallError)
        if asJSON {
            try JSONOutput.write(Report(preferred: user.preferredMFA?.rawValue, enabled: user.enabledMFA.map(\.rawValue)),
                                 pretty: false, to: context.standardOutput)
            return
        }
        context.standardOutput.line("Preferred:  \(user.preferredMFA?.label ?? "none")")
        context.standardOutput.line("Enabled:    \(user.enabledMFA.isEmpty ? "none" : user.enabledMFA.map(\.label).joined(separator: ", "))")
        if user.enabledMFA.isEmpty {
            context.standardError.line("MFA is off: set up an authenticator app with 'authvault mfa setup-totp'.")
        }
    }
}

/// `authvault mfa setup-totp`: adds an authenticator app and makes it the preferred factor.
struct MFASetupTOTPCommand: CLICommand {
    static let code = CodeOption("code", what: "the authenticator app's current code")
    static let deviceName = TypedOption<String>("device-name", placeholder: "name", help: "What Cognito calls the authenticator.",
                                                expected: "a name", default: "authvault") { $0 }
    static let spec = CommandSpec(
        name: "setup-totp",
        abstract: "Set up an authenticator app (TOTP) for the signed-in user and prefer it.",
        discussion: """
        Cognito makes a new secret (AssociateSoftwareToken); its otpauth:// URI and the base32 secret are shown on
        standard error for the authenticator app. The app's first code proves it works (VerifySoftwareToken), then
        the app becomes the enabled, preferred MFA method. On a terminal the code is asked without echo; a script
        pipes it in with --code-stdin, whose line is read only after the secret is shown (so the script can compute
        the code from it), or passes --code, which other users of the machine can see.
        """,
        options: code.options + [deviceName.spec])

    let arguments: ParsedArguments
    let friendlyDeviceName: String

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        friendlyDeviceName = try arguments.value(Self.deviceName)
        try Self.code.checkNotBoth(arguments)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let codeGiven = Self.code.isGiven(arguments)
        // Checked before Cognito makes a secret that nobody could then confirm.
        guard codeGiven || context.isInteractive else {
            throw CLIError("No terminal to ask for the authenticator's code: pipe it in with --code-stdin (or pass --code CODE).", status: .usage)
        }
        let session = try await ProfileSession.open(context)
        let accessToken = try await session.accessToken()
        let client = try await session.cognitoClient()
        let secret: SoftwareTokenSecret
        do { secret = try await client.associateSoftwareToken(accessToken: accessToken) } catch { throw ProfileSession.tokenCallError(error) }
        let account = await session.store.sessionFacts()?.identity?.displayName ?? session.profile.name
        secret.show(accountName: account, profile: session.profile.name, on: context.standardError)

        var input = AccountInput(arguments: arguments, context: context, stdinFlags: [Self.code.stdin])
        var wrongCodes = 0
        while true {
            let code = try input.code(Self.code, prompt: "First code from the authenticator app: ")
            do {
                try await client.verifySoftwareToken(accessToken: accessToken, code: code,
                                                     friendlyDeviceName: friendlyDeviceName)
                break
            } catch {
                if error.isWrongCode, !codeGiven, wrongCodes < 2 {
                    wrongCodes += 1
                    context.standardError.line("That code is not right; try again.")
                    continue
                }
                throw ProfileSession.tokenCallError(error)
            }
        }
        do {
            try await client.setMFAPreference(accessToken: accessToken, softwareToken: MFAPreference(enabled: true, preferred: true))
        } catch {
            throw ProfileSession.tokenCallError(error)
        }
        context.standardError.line("The authenticator app is set up and preferred: sign-in now asks for its code.")
    }
}

extension CognitoError {
    /// The authenticator code did not verify: worth another code, not a failure of the set-up.
    fileprivate var isWrongCode: Bool {
        switch self {
        case .codeMismatch, .enableSoftwareTokenMFA: return true
        default: return false
        }
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
    static let spec = CommandSpec(
        name: "enable",
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
        let session = try await ProfileSession.open(context)
        let accessToken = try await session.accessToken()
        try await session.call({ client throws(CognitoError) in
            try await MFACommands.set(type, to: MFAPreference(enabled: true, preferred: true), accessToken: accessToken, client: client)
        }, failure: ProfileSession.tokenCallError)
        context.standardError.line("Enabled \(type.label) as the preferred MFA method.")
    }
}

/// `authvault mfa disable`: turns MFA methods off.
struct MFADisableCommand: CLICommand {
    static let method = MFACommands.methodOption("method", help: "The method to turn off.", absent: "every enabled one")
    static let spec = CommandSpec(
        name: "disable",
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
        let session = try await ProfileSession.open(context)
        let accessToken = try await session.accessToken()
        let types: [MFAType]
        if let type {
            types = [type]
        } else {
            types = try await session.call({ client throws(CognitoError) in try await client.user(accessToken: accessToken).enabledMFA },
                                           failure: ProfileSession.tokenCallError)
        }
        guard !types.isEmpty else {
            context.standardError.line("No MFA method is enabled; nothing to turn off.")
            return
        }
        for type in types {
            try await session.call({ client throws(CognitoError) in
                try await MFACommands.set(type, to: MFAPreference(enabled: false), accessToken: accessToken, client: client)
            }, failure: ProfileSession.tokenCallError)
            context.standardError.line("Disabled \(type.label).")
        }
    }
}
