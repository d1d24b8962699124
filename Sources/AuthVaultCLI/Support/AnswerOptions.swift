import AuthVaultApp

/// Which options give the answers a command asks for (see `Answers`): they build the application's answers, and a
/// missing answer is worded with them.
struct AnswerOptions: Sendable {
    /// The `-stdin` flags, in the order the command asks their questions.
    let piped: [(question: Question, flag: OptionSpec)]
    /// The options that give an answer as a value: a user name, a code.
    let values: [Question: OptionSpec]
    /// A code's name in "No terminal to ask for ..." where it is not "the code".
    var codeNoun = "the code"

    /// The answers these options give, read from standard input or asked with the context's prompter.
    /// - Parameter repeating: the questions that may be asked again, each time taking the next line.
    func answers(_ arguments: ParsedArguments, context: CommandContext, repeating: Set<Question> = []) -> Answers {
        Answers(
            piped: piped.filter { arguments.flag($0.flag) }.map(\.question), repeating: repeating,
            given: values.compactMapValues { arguments.value($0) }, input: context.standardInput,
            prompter: context.prompter)
    }

    /// A missing answer, as a usage error naming the option that gives it.
    func error(_ error: AnswerError) -> CLIError {
        let message: String
        switch error {
        case .unanswered(.username): message = "No user name: pass --username NAME."
        case .unanswered(let question):
            let noun =
                switch question {
                case .password: "the password"
                case .newPassword: "the new password"
                case .customAnswer: "the answer to the custom challenge"
                default: codeNoun
                }
            let value = values[question].map { " (or pass --\($0.long) CODE)" } ?? ""
            message = "No terminal to ask for \(noun): pipe it in with --\(flag(question))\(value)."
        case .nothingEntered: message = "No password was entered."
        case .differ: message = "The two passwords differ; nothing was sent to Cognito."
        case .alreadyUsed(let question): message = "--\(flag(question)) gives one answer, and it was used already."
        case .noLineLeft(let question): message = "--\(flag(question)) was given but no line is left on standard input."
        }
        return CLIError(message, status: .usage)
    }

    private func flag(_ question: Question) -> String {
        piped.first { $0.question == question }?.flag.long ?? "\(question)"
    }

    /// A use's failure about `profile`: a missing answer names this command's option.
    func error(of error: ApplicationError, profile: String) -> CLIError {
        if case .answer(let missing) = error { return self.error(missing) }
        return CLIErrors.from(error, profile: profile)
    }

    /// Runs a use of the application about `profile` that asks for answers.
    nonisolated(nonsending) func use<T>(
        for profile: String, _ use: nonisolated(nonsending) () async throws(ApplicationError) -> T
    ) async throws(CLIError) -> T {
        do { return try await use() } catch { throw self.error(of: error, profile: profile) }
    }
}

/// The answers a command needs, read by option: from its flags and standard input (scripts) or the terminal (people).
struct AccountInput {
    let options: AnswerOptions
    var answers: Answers

    init(arguments: ParsedArguments, context: CommandContext, options: AnswerOptions, repeating: Set<Question> = []) {
        self.options = options
        answers = options.answers(arguments, context: context, repeating: repeating)
    }

    func username() throws(CLIError) -> String {
        do { return try answers.username() } catch { throw options.error(error) }
    }

    /// A secret the user already has (a password, a code): piped, else given as a value, else asked once.
    mutating func secret(_ question: Question, prompt: String) throws(CLIError) -> SecretBytes {
        do { return try answers.secret(question, prompt: prompt) } catch { throw options.error(error) }
    }

    /// The line of standard input for `question`; nil when its flag was not given.
    mutating func pipedLine(_ question: Question) throws(CLIError) -> SecretBytes? {
        do { return try answers.pipedLine(question) } catch { throw options.error(error) }
    }
}

/// A one-time code option: `--NAME CODE` on the command line or `--NAME-stdin`, declared once so that every
/// command taking a code offers both and explains them alike.
struct CodeOption: Sendable {
    let value: OptionSpec
    let stdin: OptionSpec

    /// - Parameter what: the code, as a noun phrase ("the code Cognito sent").
    init(_ name: String, what: String) {
        value = .value(
            name, placeholder: "code",
            help: "Take \(what) from the command line, which any user of this machine can "
                + "read (ps, /proc): prefer --\(name)-stdin or the prompt.")
        stdin = .flag("\(name)-stdin", help: "Read \(what) from the next line of standard input.")
    }

    var options: [OptionSpec] { [value, stdin] }

    func checkNotBoth(_ arguments: ParsedArguments) throws(UsageError) {
        if arguments.flag(stdin) && arguments.value(value) != nil {
            throw UsageError("Give the code with --\(value.long) or --\(stdin.long), not both.")
        }
    }

    /// Whether the code will come without a prompt.
    func isGiven(_ arguments: ParsedArguments) -> Bool {
        arguments.flag(stdin) || arguments.value(value) != nil
    }
}
