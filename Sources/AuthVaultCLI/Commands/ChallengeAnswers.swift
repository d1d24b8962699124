import AuthVaultApp

/// The answers a sign-in needs, from login's options and standard input (scripts) or the terminal (people).
struct ChallengeAnswers {
    /// The user name, the password and codes, read as the account commands read them.
    var input: AccountInput
    let choices: SignInChoices

    /// Which of login's options answers each question.
    private static let questions: [OptionSpec: Question] = [
        LoginCommand.passwordStdin: .password, LoginCommand.newPasswordStdin: .newPassword,
        LoginCommand.code.stdin: .code,
        LoginCommand.mfaCode.stdin: .mfaCode, LoginCommand.answerStdin: .customAnswer,
    ]
    static let options = AnswerOptions(
        piped: LoginCommand.stdinOrder.compactMap { flag in questions[flag].map { (question: $0, flag: flag) } },
        values: [
            .username: LoginCommand.username, .code: LoginCommand.code.value, .mfaCode: LoginCommand.mfaCode.value,
        ])

    init(arguments: ParsedArguments, mfaType: MFAType?, firstFactor: FirstFactorChoice?, context: CommandContext) {
        input = AccountInput(
            arguments: arguments, context: context, options: Self.options, repeating: [.code, .customAnswer])
        var attributes: [String: String] = [:]
        for pair in arguments.values(LoginCommand.attribute) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            attributes[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        choices = SignInChoices(
            mfaType: mfaType, firstFactor: firstFactor, attributes: attributes,
            remembersDevice: arguments.flag(LoginCommand.rememberDevice))
    }

    /// A sign-in that cannot go on, with login's options for what it lacks.
    static func error(_ error: SignInError, profile: String) -> CLIError {
        let escaped = { (text: String) in ServerText.escaped(text) }
        switch error {
        case .noAnswerableFirstFactor(let offered):
            return CLIError(
                "Cognito offers \(escaped(offered.joined(separator: ", "))) to sign in, none of which authvault "
                    + "can answer: sign in through the browser (\(Remedy.command("login", profile: profile, "--browser")))."
            )
        case .firstFactorNotOffered(let chosen, let offered, let username):
            let words = offered.map(\.rawValue)
            return CLIError(
                "Cognito offers \(words.joined(separator: ", ")) to sign in as \(escaped(username)), not "
                    + "\(chosen.rawValue): pass --challenge \(words.joined(separator: "|")).", status: .usage)
        case .firstFactorUnchosen(let offered):
            return CLIError(
                "Cognito asks how to sign in: pass --challenge \(offered.map(\.rawValue).joined(separator: "|")).",
                status: .usage)
        case .mfaTypeNotOffered(let chosen, let offered):
            return CLIError(
                "Cognito offers \(offered.map(\.word).sorted().joined(separator: ", ")) for MFA, not \(chosen.word).",
                status: .usage)
        case .mfaTypeUnchosen(let offered):
            return CLIError(
                "Cognito asks which MFA method to use: pass --mfa-type \(offered.map(\.word).sorted().joined(separator: "|")).",
                status: .usage)
        case .attributeRequired(let name):
            return CLIError(
                "Cognito requires the attribute '\(escaped(name))': pass --attribute \(escaped(name))=VALUE.",
                status: .usage)
        case .newPasswordRequired:
            return CLIError("Cognito requires a new password: pipe it in with --new-password-stdin.", status: .usage)
        case .newPasswordNotEntered: return CLIError("No new password was entered.", status: .usage)
        case .newPasswordsDiffer:
            return CLIError(
                "The two passwords differ; run \(Remedy.command("login", profile: profile)) again.", status: .usage)
        case .unanswerable(let kind):
            return CLIError("Cognito asks for \(escaped(kind)), which authvault cannot answer yet.")
        case .customAnswerRefused(let round):
            return CLIError(
                "Cognito did not accept the answer to custom challenge \(round), which ends the sign-in: "
                    + "run \(Remedy.command("login", profile: profile, "--auth-flow custom")) again.")
        case .endedWithoutSession: return CLIError("The sign-in ended without a session.")
        }
    }
}
