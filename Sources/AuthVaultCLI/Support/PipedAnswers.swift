import AuthCrypto
import AuthVaultApp

/// The answers a script pipes in for a command's `-stdin` options: one line each (blank lines skipped), in the
/// order the command asks its questions, each line read only when its question comes, so a script may write an
/// MFA code once the password has gone through. A line meant for a question that never came (no new password was
/// required) is dropped when a later one is asked, so every line still goes where the script meant it to.
/// A repeating option answers a question asked again (a code after a wrong one, the next custom round) with the
/// next line.
struct PipedAnswers {
    private let flags: [OptionSpec]
    private let repeating: [OptionSpec]
    private var linesRead = 0

    /// - Parameters:
    ///   - order: every `-stdin` option of the command, in the order it asks them.
    ///   - repeating: those of them that may be asked again, each time right after the last.
    init(arguments: ParsedArguments, order: [OptionSpec], repeating: [OptionSpec] = []) {
        flags = order.filter(arguments.flag)
        self.repeating = repeating
    }

    func isPiped(_ flag: OptionSpec) -> Bool {
        flags.contains(flag)
    }

    /// The line for `flag`, which must be piped.
    mutating func answer(for flag: OptionSpec, from input: any StandardInput) throws(CLIError) -> SecretBytes {
        guard let index = flags.firstIndex(of: flag) else {
            throw CLIError("--\(flag.long) was not given.", status: .usage)
        }
        let askedAgain = repeating.contains(flag) && index == linesRead - 1
        guard index >= linesRead || askedAgain else {
            throw CLIError("--\(flag.long) gives one answer, and it was used already.", status: .usage)
        }
        if !askedAgain {
            while linesRead < index {
                _ = input.nextLine()
                linesRead += 1
            }
            linesRead += 1
        }
        guard let line = input.nextLine() else {
            throw CLIError("--\(flag.long) was given but no line is left on standard input.", status: .usage)
        }
        return line
    }
}

/// A one-time code option: `--NAME CODE` on the command line or `--NAME-stdin`, declared once so that every
/// command taking a code offers both and explains them alike.
struct CodeOption: Sendable {
    let value: OptionSpec
    let stdin: OptionSpec

    /// - Parameter what: the code, as a noun phrase ("the code Cognito sent").
    init(_ name: String, what: String) {
        value = .value(name, placeholder: "code", help: "Take \(what) from the command line, which any user of this machine can "
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
