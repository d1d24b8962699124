import AuthVaultApp

/// A sign-in with the user-pool API (see `UserPoolSignIn`), its notices on standard error and its failures worded
/// with login's options.
struct SignInDialogue {
    let session: ProfileSession
    let context: CommandContext
    var answers: ChallengeAnswers
    /// `login --remember-device`: where the pool leaves it to the user, this machine is remembered.
    let remembersDevice: Bool

    mutating func run(username: String, flow: AuthFlowChoice) async throws(CLIError) -> SessionSummary {
        var choices = answers.choices
        choices.remembersDevice = remembersDevice
        let context = context
        let profile = session.profile.name
        var signIn = UserPoolSignIn(session: session, answers: answers.input.answers, choices: choices) { notice in
            Self.show(notice, profile: profile, on: context.standardError)
        }
        do {
            return try await signIn.run(username: username, flow: flow)
        } catch {
            throw answers.input.options.error(of: error, profile: profile)
        }
    }

    /// The provider's texts (destinations, the pool's parameters, device names) are shown escaped, so they cannot
    /// rewrite the terminal or fake a line.
    private static func show(_ notice: SignInNotice, profile: String, on output: any TextOutput) {
        let escaped = { (text: String) in ServerText.escaped(text) }
        switch notice {
        case .codeSent(let destination, let medium, let bySMS):
            let to =
                destination.map { " to \(escaped($0))\(medium.map { " (\(escaped($0)))" } ?? "")" }
                ?? (bySMS ? " by SMS" : " by e-mail")
            output.line("Cognito sent a code\(to).")
        case .customChallenge(let round, let parameters):
            output.line("Custom challenge \(round)\(parameters.isEmpty ? "." : ":")")
            for (name, value) in parameters { output.line("  \(escaped(name)): \(escaped(value))") }
        case .newPasswordRequired: output.line("Cognito requires a new password for this account.")
        case .authenticatorRequired(let secret, let account):
            output.line("Cognito requires an authenticator app for this account.")
            secret.show(accountName: account, profile: profile, on: output)
        case .wrongPassword: output.line("Incorrect user name or password; try the password again.")
        case .wrongCode(let readingNextLine):
            output.line(
                readingNextLine
                    ? "That code is not right; reading the next line of standard input."
                    : "That code is not right; try again.")
        case .deviceTracked(let key, let name):
            output.line("Cognito now knows this machine as device '\(escaped(name))' (\(escaped(key))).")
        case .deviceRemembered(let name):
            output.line("Cognito remembers this machine ('\(escaped(name))') from now on.")
        }
    }
}
