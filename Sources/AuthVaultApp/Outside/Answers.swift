import AuthCrypto

/// What a use asks for, by its purpose: the front end knows which option gives each one.
public enum Question: Hashable, Sendable {
    case username
    /// A password the user already has.
    case password
    /// A password being chosen.
    case newPassword
    /// A code Cognito sent, or an authenticator's code where it is the only one.
    case code
    /// The second factor's code during a sign-in.
    case mfaCode
    /// The answer to a pool's custom challenge.
    case customAnswer
}

/// Why an answer could not be had; the front end words each with its own option names.
public enum AnswerError: Error, Sendable, Equatable {
    /// Neither given nor askable: no terminal.
    case unanswered(Question)
    /// Asked, and the person entered nothing.
    case nothingEntered(Question)
    /// A new password typed twice differently.
    case differ(Question)
    /// Its one line was used already.
    case alreadyUsed(Question)
    /// Standard input ended before its line.
    case noLineLeft(Question)
}

/// The answers a use needs: from a script (lines of standard input, values given) or from a person at the prompter.
///
/// A script pipes one line for each question it said it would (blank lines skipped), in the order the use asks them;
/// each line is read only when its question comes, so a script may write an MFA code once the password has gone
/// through. A line meant for a question that never came (no new password was required) is dropped when a later
/// one is asked, so every line still goes where the script meant it to. A repeating question (a code after a
/// wrong one, the next custom round) takes the next line each time it is asked again.
public struct Answers: Sendable {
    private let piped: [Question]
    private let repeating: Set<Question>
    private let given: [Question: String]
    private let input: any StandardInput
    private let prompter: any SecretPrompter
    private var linesRead = 0

    /// - Parameters:
    ///   - piped: the questions whose answers are piped, in the order the use asks them.
    ///   - repeating: those of them that may be asked again, each time right after the last.
    ///   - given: answers given as values (a user name, a code on the command line); empty ones count as absent.
    public init(
        piped: [Question] = [], repeating: Set<Question> = [], given: [Question: String] = [:],
        input: any StandardInput, prompter: any SecretPrompter
    ) {
        self.piped = piped
        self.repeating = repeating
        self.given = given.filter { !$0.value.isEmpty }
        self.input = input
        self.prompter = prompter
    }

    /// Whether a person can be asked.
    public var isInteractive: Bool { prompter.isInteractive }

    public func isPiped(_ question: Question) -> Bool { piped.contains(question) }

    /// Whether the answer comes without a prompt.
    public func isGiven(_ question: Question) -> Bool { isPiped(question) || given[question] != nil }

    /// The value given for `question`, if any.
    public func value(_ question: Question) -> String? { given[question] }

    /// The line of standard input for `question`; nil when it is not piped.
    public mutating func pipedLine(_ question: Question) throws(AnswerError) -> SecretBytes? {
        guard let index = piped.firstIndex(of: question) else { return nil }
        let askedAgain = repeating.contains(question) && index == linesRead - 1
        guard index >= linesRead || askedAgain else { throw .alreadyUsed(question) }
        if !askedAgain {
            while linesRead < index {
                _ = input.nextLine()
                linesRead += 1
            }
            linesRead += 1
        }
        guard let line = input.nextLine() else { throw .noLineLeft(question) }
        return line
    }

    /// The user name: given, else asked with echo.
    public func username() throws(AnswerError) -> String {
        if let name = given[.username] { return name }
        guard isInteractive, let name = prompter.readLine(prompt: "Username: "), !name.isEmpty else {
            throw .unanswered(.username)
        }
        return name
    }

    /// A text answer a person types with echo (an attribute, a choice); nil when nobody can be asked.
    public func askLine(_ prompt: String) -> String? {
        isInteractive ? prompter.readLine(prompt: prompt) : nil
    }

    /// A secret the user already has: piped, else given, else asked once without echo.
    public mutating func secret(_ question: Question, prompt: String) throws(AnswerError) -> SecretBytes {
        if let line = try pipedLine(question) { return line }
        if let value = given[question] { return SecretBytes(utf8: value) }
        guard isInteractive, let answer = prompter.readSecret(prompt: prompt), answer.count > 0 else {
            throw .unanswered(question)
        }
        return answer
    }

    /// A password being chosen: piped, else asked twice without echo.
    public mutating func newPassword(
        _ question: Question = .newPassword, prompt: String = "New password: ",
        again: String = "Repeat the password: "
    ) throws(AnswerError) -> SecretBytes {
        if let line = try pipedLine(question) { return line }
        guard isInteractive else { throw .unanswered(question) }
        guard let first = prompter.readSecret(prompt: prompt), first.count > 0 else { throw .nothingEntered(question) }
        guard prompter.readSecret(prompt: again) == first else { throw .differ(question) }
        return first
    }
}
