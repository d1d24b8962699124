import AuthCrypto
import AuthStore
import CognitoAuth
import NetworkHosts

/// A sign-in with the user-pool API from its first call to its session: every challenge Cognito asks answered in
/// turn from the answers and the choices given (a wrong code asked again in the same session), then the machine's
/// remembered device reported.
public struct UserPoolSignIn {
    private let session: ProfileSession
    private var answers: Answers
    private let choices: SignInChoices
    private let notice: (SignInNotice) -> Void
    /// Whether the password was given: a code Cognito sends is then a second factor (MFA), else the first.
    private var passwordGiven = false
    /// Whether a wrong code can be answered again: one typed at the prompt, or the next piped line.
    private var codeCanBeRetried = false
    private var codeAnnounced = false
    /// Custom challenges asked so far, to number them.
    private var customRounds = 0

    public init(
        session: ProfileSession, answers: Answers, choices: SignInChoices, notice: @escaping (SignInNotice) -> Void
    ) {
        self.session = session
        self.answers = answers
        self.choices = choices
        self.notice = notice
    }

    public mutating func run(username: String, flow: AuthFlowChoice) async throws(ApplicationError) -> SessionSummary {
        let store = session.store
        // Nobody types a password for a session that could not be kept.
        try await session.vaultAnswersForSignIn()
        let deviceBefore = await store.recordFacts()?.device?.key
        var progress: SignInProgress
        var wrongPasswords = 0
        while true {
            let method = try method(flow, username: username)
            do {
                progress = try await store.signIn(username: username, method: method)
                break
            } catch .rejected(.notAuthorized) where passwordTypedAtTerminal && wrongPasswords < 2 {
                // A person mistypes: asked again, three tries in all, as sudo and ssh do.
                wrongPasswords += 1
                notice(.wrongPassword)
            } catch {
                throw ApplicationError(error, need: session.signInNeed)
            }
        }
        var wrongCodes = 0
        while case .challenge(let challenge) = progress {
            let answer = try await self.answer(challenge)
            do {
                progress = try await store.answer(answer)
            } catch let error {
                // Cognito takes three tries of a code in one session.
                if case .rejected(.codeMismatch) = error, codeCanBeRetried, wrongCodes < 2 {
                    wrongCodes += 1
                    notice(.wrongCode(readingNextLine: answers.isPiped(.code) && !passwordGiven))
                    continue
                }
                // Not a password that is wrong: the pool's own check refused this round's answer.
                if case .customAnswer = answer, case .rejected(.notAuthorized) = error {
                    throw .signIn(.customAnswerRefused(round: customRounds))
                }
                throw ApplicationError(error, need: session.signInNeed)
            }
        }
        guard case .signedIn(let summary) = progress else { throw .signIn(.endedWithoutSession) }
        try await reportDevice(previous: deviceBefore)
        return summary
    }

    /// Says when this sign-in made the machine a remembered device; when asked to, has Cognito remember a device it
    /// only tracked so far.
    private func reportDevice(previous: String?) async throws(ApplicationError) {
        guard let device = await session.store.recordFacts()?.device else { return }
        if device.key != previous {
            notice(.deviceTracked(key: device.key, name: device.name))
        } else if choices.remembersDevice {
            try await session.rememberDevice(device.key)
            notice(.deviceRemembered(name: device.name))
        }
    }

    private mutating func method(_ flow: AuthFlowChoice, username: String) throws(ApplicationError) -> SignInMethod {
        switch flow {
        case .srp: .password(try password(for: username), flow: .userSRP)
        case .password: .password(try password(for: username), flow: .userPassword)
        case .emailOTP: .choice(preferring: .emailOTP)
        case .smsOTP: .choice(preferring: .smsOTP)
        case .choice: .choice(preferring: nil)
        case .custom: .custom
        }
    }

    /// The password was typed at the prompt, not given on standard input: a wrong one can be typed again.
    private var passwordTypedAtTerminal: Bool { passwordGiven && answers.isInteractive && !answers.isGiven(.password) }

    private mutating func password(for username: String) throws(ApplicationError) -> SecretBytes {
        passwordGiven = true
        return try secret(.password, prompt: "Password for \(ServerText.escaped(username)): ")
    }

    private mutating func secret(_ question: Question, prompt: String) throws(ApplicationError) -> SecretBytes {
        try asked { () throws(AnswerError) in try answers.secret(question, prompt: prompt) }
    }

    private mutating func answer(_ challenge: AuthChallenge) async throws(ApplicationError) -> ChallengeAnswer {
        switch challenge.kind {
        case .newPasswordRequired:
            return .newPassword(try newPassword(), attributes: try requiredAttributes(challenge))
        case .smsOTP:
            return .code(try sentCode(challenge))
        case .emailOTP where !passwordGiven:
            return .code(try sentCode(challenge))
        case .smsMFA, .emailOTP, .softwareTokenMFA:
            let source =
                challenge.kind == .softwareTokenMFA
                ? "your authenticator app"
                : "the code sent to \(challenge.codeDeliveryDestination.map { ServerText.escaped($0) } ?? "you")"
            codeCanBeRetried = answers.isInteractive && !answers.isGiven(.mfaCode)
            return .code(try secret(.mfaCode, prompt: "MFA code from \(source): "))
        case .selectMFAType:
            return .mfaType(try chooseMFAType(challenge.mfaTypes))
        case .selectChallenge:
            return .firstFactor(try chooseFirstFactor(challenge))
        case .customChallenge:
            customRounds += 1
            notice(
                .customChallenge(
                    round: customRounds,
                    parameters: challenge.parameters.filter { $0.key != "USERNAME" }.sorted { $0.key < $1.key }
                        .map { (name: $0.key, value: $0.value) }))
            return .customAnswer(try secret(.customAnswer, prompt: "Answer: "))
        case .mfaSetup:
            let secret: SoftwareTokenSecret
            do { secret = try await session.store.beginSoftwareTokenSetup() } catch {
                throw ApplicationError(error, need: session.signInNeed)
            }
            // The user's own authenticator secret, shown because Cognito requires them to set it up now.
            notice(.authenticatorRequired(secret, accountName: challenge.username))
            return .softwareTokenSetupCode(
                try self.secret(.mfaCode, prompt: "First code from the authenticator app: "),
                friendlyDeviceName: "authvault")
        default:
            throw .signIn(.unanswerable("\(challenge.kind)"))
        }
    }

    /// EMAIL_OTP or SMS_OTP in place of a password: says where Cognito sent the code, once, then reads it; a wrong
    /// one is asked again.
    private mutating func sentCode(_ challenge: AuthChallenge) throws(ApplicationError) -> SecretBytes {
        if !codeAnnounced {
            codeAnnounced = true
            notice(
                .codeSent(
                    destination: challenge.codeDeliveryDestination,
                    medium: challenge.parameters["CODE_DELIVERY_DELIVERY_MEDIUM"],
                    bySMS: challenge.kind == .smsOTP))
        }
        codeCanBeRetried = answers.value(.code) == nil
        return try secret(.code, prompt: "Code: ")
    }

    /// SELECT_CHALLENGE: the chosen first factor, else the user's pick among those Cognito offers that can be
    /// answered here; a password factor reads the password now.
    private mutating func chooseFirstFactor(_ challenge: AuthChallenge) throws(ApplicationError) -> FirstFactor {
        let offered = FirstFactorChoice.allCases.filter { challenge.availableChallenges.contains($0.cognitoName) }
        guard !offered.isEmpty else { throw .signIn(.noAnswerableFirstFactor(offered: challenge.availableChallenges)) }
        let chosen: FirstFactorChoice
        if let firstFactor = choices.firstFactor {
            guard offered.contains(firstFactor) else {
                throw .signIn(.firstFactorNotOffered(firstFactor, offered: offered, username: challenge.username))
            }
            chosen = firstFactor
        } else {
            let words = offered.map(\.rawValue).joined(separator: "/")
            guard let answer = answers.askLine("Sign in with (\(words)): "),
                let picked = FirstFactorChoice(rawValue: answer),
                offered.contains(picked)
            else { throw .signIn(.firstFactorUnchosen(offered: offered)) }
            chosen = picked
        }
        switch chosen {
        case .password: return .password(try password(for: challenge.username))
        case .passwordSRP: return .passwordSRP(try password(for: challenge.username))
        case .emailOTP: return .emailOTP
        case .smsOTP: return .smsOTP
        }
    }

    private mutating func newPassword() throws(ApplicationError) -> SecretBytes {
        if let line = try asked({ () throws(AnswerError) in try answers.pipedLine(.newPassword) }) { return line }
        guard answers.isInteractive else { throw .signIn(.newPasswordRequired) }
        notice(.newPasswordRequired)
        do {
            return try answers.newPassword(again: "Repeat the new password: ")
        } catch {
            throw .signIn(error == .differ(.newPassword) ? .newPasswordsDiffer : .newPasswordNotEntered)
        }
    }

    private func requiredAttributes(_ challenge: AuthChallenge) throws(ApplicationError) -> [String: String] {
        var given = choices.attributes
        for name in challenge.requiredAttributes where given[name] == nil {
            guard let value = answers.askLine("\(ServerText.escaped(name)): ") else {
                throw .signIn(.attributeRequired(name))
            }
            given[name] = value
        }
        return given
    }

    private func chooseMFAType(_ offered: [MFAType]) throws(ApplicationError) -> MFAType {
        if let mfaType = choices.mfaType {
            guard offered.contains(mfaType) else { throw .signIn(.mfaTypeNotOffered(mfaType, offered: offered)) }
            return mfaType
        }
        let words = offered.map(\.word).sorted().joined(separator: "/")
        guard let answer = answers.askLine("MFA method (\(words)): "), let type = MFAType(word: answer),
            offered.contains(type)
        else {
            throw .signIn(.mfaTypeUnchosen(offered: offered))
        }
        return type
    }
}
