import AuthStore
import AuthVaultApp
import CognitoAuth
import NetworkHosts

/// A sign-in with the user-pool API from its first call to its session: every challenge Cognito asks answered in
/// turn (a wrong code asked again in the same session), then the machine's remembered device reported.
struct SignInDialogue {
    let session: ProfileSession
    let context: CommandContext
    var answers: ChallengeAnswers
    /// `login --remember-device`: where the pool leaves it to the user, this machine is remembered.
    let remembersDevice: Bool

    mutating func run(username: String, flow: AuthFlowChoice) async throws(CLIError) -> SessionSummary {
        await session.store.bootstrap()
        let deviceBefore = await session.store.sessionFacts()?.device?.key
        let method: SignInMethod = switch flow {
        case .srp: .password(try answers.password(for: username), flow: .userSRP)
        case .password: .password(try answers.password(for: username), flow: .userPassword)
        case .emailOTP: .choice(preferring: .emailOTP)
        case .smsOTP: .choice(preferring: .smsOTP)
        case .choice: .choice(preferring: nil)
        case .custom: .custom
        }
        var progress: SignInProgress
        do {
            progress = try await session.store.signIn(username: username, method: method)
        } catch {
            throw CLIErrors.from(error)
        }
        var wrongCodes = 0
        while case .challenge(let challenge) = progress {
            let answer = try await answers.answer(challenge, store: session.store, profile: session.profile, context: context)
            do {
                progress = try await session.store.answer(answer)
            } catch let error {
                // Cognito takes three tries of a code in one session.
                if case .rejected(.codeMismatch) = error, answers.codeCanBeRetried, wrongCodes < 2 {
                    wrongCodes += 1
                    context.standardError.line(answers.retryNote)
                    continue
                }
                // Not a password that is wrong: the pool's own check refused this round's answer.
                if case .customAnswer = answer, case .rejected(.notAuthorized) = error {
                    throw CLIError("Cognito did not accept the answer to custom challenge \(answers.customRounds), which ends the sign-in: "
                                   + "run 'authvault login --auth-flow custom' again.")
                }
                throw CLIErrors.from(error)
            }
        }
        guard case .signedIn(let summary) = progress else { throw CLIError("The sign-in ended without a session.") }
        try await reportDevice(previous: deviceBefore)
        return summary
    }

    /// Says when this sign-in made the machine a remembered device; with --remember-device, has Cognito remember
    /// a device it only tracked so far (UpdateDeviceStatus).
    private func reportDevice(previous: String?) async throws(CLIError) {
        guard let device = await session.store.sessionFacts()?.device else { return }
        if device.key != previous {
            context.standardError.line("Cognito now knows this machine as device '\(ServerText.escaped(device.name))' (\(ServerText.escaped(device.key))).")
        } else if remembersDevice {
            let accessToken = try await session.accessToken()
            try await session.call({ client throws(CognitoError) in
                try await client.setDeviceRemembered(true, deviceKey: device.key, accessToken: accessToken)
            }, failure: ProfileSession.tokenCallError)
            context.standardError.line("Cognito remembers this machine ('\(ServerText.escaped(device.name))') from now on.")
        }
    }
}
