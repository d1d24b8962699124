import AuthCrypto
import AuthStore
import AuthVaultApp
import CognitoAuth
import NetworkHosts

/// The answers a sign-in needs, from the command line and standard input (scripts) or the terminal (people).
struct ChallengeAnswers {
    let arguments: ParsedArguments
    let mfaType: MFAType?
    /// `--challenge`: the first factor to pick when Cognito offers a choice.
    let firstFactor: FirstFactorChoice?
    let interactive: Bool
    /// The user name, the password and codes, read as the account commands read them.
    var input: AccountInput
    /// Whether the password was given: a code Cognito sends is then a second factor (MFA), else the first.
    private(set) var passwordGiven = false
    /// Whether a wrong code can be answered again: one typed at the terminal, or the next line for --code-stdin.
    private(set) var codeCanBeRetried = false
    private var codeAnnounced = false
    /// Custom challenges asked so far, to number them.
    private(set) var customRounds = 0

    init(arguments: ParsedArguments, mfaType: MFAType?, firstFactor: FirstFactorChoice?, context: CommandContext) {
        self.arguments = arguments
        self.mfaType = mfaType
        self.firstFactor = firstFactor
        interactive = context.isInteractive
        input = AccountInput(arguments: arguments, context: context, stdinFlags: LoginCommand.stdinOrder,
                             repeating: [LoginCommand.code.stdin, LoginCommand.answerStdin])
    }

    mutating func password(for username: String) throws(CLIError) -> SecretBytes {
        passwordGiven = true
        return try input.password(LoginCommand.passwordStdin, prompt: "Password for \(ServerText.escaped(username)): ")
    }

    /// What to say after a wrong code, before it is asked again.
    var retryNote: String {
        input.isPiped(LoginCommand.code.stdin) && !passwordGiven
            ? "That code is not right; reading the next line of standard input." : "That code is not right; try again."
    }

    mutating func answer(_ challenge: AuthChallenge, store: AuthStore, profile: ResolvedProfile,
                         context: CommandContext) async throws(CLIError) -> ChallengeAnswer {
        let prompter = context.prompter
        switch challenge.kind {
        case .newPasswordRequired:
            return .newPassword(try newPassword(prompter: prompter, context: context),
                                attributes: try requiredAttributes(challenge, prompter: prompter))
        case .smsOTP:
            return .code(try sentCode(challenge, context: context))
        case .emailOTP where !passwordGiven:
            return .code(try sentCode(challenge, context: context))
        case .smsMFA, .emailOTP, .softwareTokenMFA:
            let source = challenge.kind == .softwareTokenMFA ? "your authenticator app"
                : "the code sent to \(challenge.codeDeliveryDestination.map { ServerText.escaped($0) } ?? "you")"
            codeCanBeRetried = interactive && !LoginCommand.mfaCode.isGiven(arguments)
            return .code(try input.code(LoginCommand.mfaCode, prompt: "MFA code from \(source): "))
        case .selectMFAType:
            return .mfaType(try chooseMFAType(challenge.mfaTypes, prompter: prompter))
        case .selectChallenge:
            return .firstFactor(try chooseFirstFactor(challenge, prompter: prompter))
        case .customChallenge:
            return .customAnswer(try customAnswer(challenge, context: context))
        case .mfaSetup:
            let secret: SoftwareTokenSecret
            do { secret = try await store.beginSoftwareTokenSetup() } catch { throw CLIErrors.from(error) }
            // The user's own authenticator secret, shown because Cognito requires them to set it up now.
            context.standardError.line("Cognito requires an authenticator app for this account.")
            secret.show(accountName: challenge.username, profile: profile.name, on: context.standardError)
            return .softwareTokenSetupCode(try input.code(LoginCommand.mfaCode, prompt: "First code from the authenticator app: "),
                                           friendlyDeviceName: "authvault")
        default:
            throw CLIError("Cognito asks for \(ServerText.escaped("\(challenge.kind)")), which authvault cannot answer yet.")
        }
    }

    /// EMAIL_OTP or SMS_OTP in place of a password: says where Cognito sent the code (as Cognito masks it), once,
    /// then reads it; a wrong one is asked again.
    private mutating func sentCode(_ challenge: AuthChallenge, context: CommandContext) throws(CLIError) -> SecretBytes {
        if !codeAnnounced {
            codeAnnounced = true
            let medium = challenge.parameters["CODE_DELIVERY_DELIVERY_MEDIUM"].map { " (\(ServerText.escaped($0)))" } ?? ""
            let destination = challenge.codeDeliveryDestination.map { " to \(ServerText.escaped($0))\(medium)" }
                ?? (challenge.kind == .smsOTP ? " by SMS" : " by e-mail")
            context.standardError.line("Cognito sent a code\(destination).")
        }
        codeCanBeRetried = arguments.value(LoginCommand.code.value) == nil
        return try input.code(LoginCommand.code, prompt: "Code: ")
    }

    /// SELECT_CHALLENGE: `--challenge`, else the user's pick among the factors Cognito offers that authvault can
    /// answer; a password factor reads the password now.
    private mutating func chooseFirstFactor(_ challenge: AuthChallenge, prompter: any SecretPrompter) throws(CLIError) -> FirstFactor {
        let offered = FirstFactorChoice.allCases.filter { challenge.availableChallenges.contains($0.cognitoName) }
        let words = offered.map { $0.rawValue }
        guard !offered.isEmpty else {
            throw CLIError("Cognito offers \(ServerText.escaped(challenge.availableChallenges.joined(separator: ", "))) to sign in, none of which authvault "
                           + "can answer: sign in through the browser ('authvault login --browser').")
        }
        let chosen: FirstFactorChoice
        if let firstFactor {
            guard offered.contains(firstFactor) else {
                throw CLIError("Cognito offers \(words.joined(separator: ", ")) to sign in as \(ServerText.escaped(challenge.username)), not "
                               + "\(firstFactor.rawValue): pass --challenge \(words.joined(separator: "|")).", status: .usage)
            }
            chosen = firstFactor
        } else {
            guard interactive, let answer = prompter.readLine(prompt: "Sign in with (\(words.joined(separator: "/"))): "),
                  let picked = FirstFactorChoice(rawValue: answer), offered.contains(picked) else {
                throw CLIError("Cognito asks how to sign in: pass --challenge \(words.joined(separator: "|")).", status: .usage)
            }
            chosen = picked
        }
        switch chosen {
        case .password: return .password(try password(for: challenge.username))
        case .passwordSRP: return .passwordSRP(try password(for: challenge.username))
        case .emailOTP: return .emailOTP
        case .smsOTP: return .smsOTP
        }
    }

    /// CUSTOM_CHALLENGE: its public parameters shown, then the answer, one round after another.
    private mutating func customAnswer(_ challenge: AuthChallenge, context: CommandContext) throws(CLIError) -> SecretBytes {
        customRounds += 1
        let shown = challenge.parameters.filter { $0.key != "USERNAME" }.sorted { $0.key < $1.key }
        context.standardError.line("Custom challenge \(customRounds)\(shown.isEmpty ? "." : ":")")
        // The pool's own Lambda chose these: shown escaped, so they cannot rewrite the terminal or fake a line.
        for (name, value) in shown { context.standardError.line("  \(ServerText.escaped(name)): \(ServerText.escaped(value))") }
        if let line = try input.pipedLine(LoginCommand.answerStdin) { return line }
        guard interactive, let answer = context.prompter.readSecret(prompt: "Answer: "), answer.count > 0 else {
            throw CLIError("No terminal to ask for the answer to the custom challenge: pipe it in with --answer-stdin.", status: .usage)
        }
        return answer
    }

    private mutating func newPassword(prompter: any SecretPrompter, context: CommandContext) throws(CLIError) -> SecretBytes {
        if let line = try input.pipedLine(LoginCommand.newPasswordStdin) { return line }
        guard interactive else {
            throw CLIError("Cognito requires a new password: pipe it in with --new-password-stdin.", status: .usage)
        }
        context.standardError.line("Cognito requires a new password for this account.")
        guard let first = prompter.readSecret(prompt: "New password: "), first.count > 0 else {
            throw CLIError("No new password was entered.", status: .usage)
        }
        guard prompter.readSecret(prompt: "Repeat the new password: ") == first else {
            throw CLIError("The two passwords differ; run 'authvault login' again.", status: .usage)
        }
        return first
    }

    private func requiredAttributes(_ challenge: AuthChallenge, prompter: any SecretPrompter) throws(CLIError) -> [String: String] {
        var given: [String: String] = [:]
        for pair in arguments.values(LoginCommand.attribute) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            given[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        for name in challenge.requiredAttributes where given[name] == nil {
            guard interactive, let value = prompter.readLine(prompt: "\(ServerText.escaped(name)): ") else {
                throw CLIError("Cognito requires the attribute '\(ServerText.escaped(name))': pass --attribute \(ServerText.escaped(name))=VALUE.", status: .usage)
            }
            given[name] = value
        }
        return given
    }

    private func chooseMFAType(_ offered: [MFAType], prompter: any SecretPrompter) throws(CLIError) -> MFAType {
        let names = MFACommands.types.filter { offered.contains($0.value) }.keys.sorted()
        if let mfaType {
            guard offered.contains(mfaType) else {
                throw CLIError("Cognito offers \(names.joined(separator: ", ")) for MFA, not \(mfaType.word).", status: .usage)
            }
            return mfaType
        }
        guard interactive, let answer = prompter.readLine(prompt: "MFA method (\(names.joined(separator: "/"))): "),
              let type = MFACommands.types[answer], offered.contains(type) else {
            throw CLIError("Cognito asks which MFA method to use: pass --mfa-type \(names.joined(separator: "|")).", status: .usage)
        }
        return type
    }
}
