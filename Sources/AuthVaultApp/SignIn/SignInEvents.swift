import CognitoAuth

/// The choices a sign-in is given in advance, for the questions Cognito may ask.
public struct SignInChoices: Sendable {
    /// The MFA method to name when Cognito lets the user choose.
    public var mfaType: MFAType?
    /// The first factor to pick when Cognito offers a choice.
    public var firstFactor: FirstFactorChoice?
    /// User attributes Cognito may require with a new password.
    public var attributes: [String: String]
    /// Where the pool leaves it to the user, have Cognito remember this machine.
    public var remembersDevice: Bool

    public init(
        mfaType: MFAType? = nil, firstFactor: FirstFactorChoice? = nil, attributes: [String: String] = [:],
        remembersDevice: Bool = false
    ) {
        self.mfaType = mfaType
        self.firstFactor = firstFactor
        self.attributes = attributes
        self.remembersDevice = remembersDevice
    }
}

/// What a sign-in tells the person as it goes. Every text in it is the provider's (or its pool's Lambda's): shown
/// escaped.
public enum SignInNotice: Sendable {
    /// A code Cognito sent in place of a password: where it went, as Cognito masks it.
    case codeSent(destination: String?, medium: String?, bySMS: Bool)
    /// A round of the pool's custom challenges, with the parameters it shows.
    case customChallenge(round: Int, parameters: [(name: String, value: String)])
    case newPasswordRequired
    /// Cognito requires an authenticator app now: its secret, for the account the app lists.
    case authenticatorRequired(SoftwareTokenSecret, accountName: String)
    /// A wrong password typed at the prompt, asked again (three tries in all).
    case wrongPassword
    /// A wrong code, asked again: from the next piped line, or at the prompt.
    case wrongCode(readingNextLine: Bool)
    /// This sign-in made the machine a device Cognito tracks.
    case deviceTracked(key: String, name: String)
    /// Cognito remembers this machine from now on.
    case deviceRemembered(name: String)
}

/// Why a sign-in cannot go on: the front end words the remedy with its own options.
public enum SignInError: Error, Sendable, Equatable {
    /// Cognito offers first factors of which none can be answered here.
    case noAnswerableFirstFactor(offered: [String])
    case firstFactorNotOffered(FirstFactorChoice, offered: [FirstFactorChoice], username: String)
    /// Cognito asks for a first factor, and nobody chose one nor can be asked.
    case firstFactorUnchosen(offered: [FirstFactorChoice])
    case mfaTypeNotOffered(MFAType, offered: [MFAType])
    case mfaTypeUnchosen(offered: [MFAType])
    /// Cognito requires a user attribute that was not given and cannot be asked.
    case attributeRequired(String)
    /// Cognito requires a new password, which was neither piped nor can be asked.
    case newPasswordRequired
    case newPasswordNotEntered
    case newPasswordsDiffer
    /// A challenge this sign-in cannot answer, by Cognito's name.
    case unanswerable(String)
    /// The pool's check refused a custom challenge's answer, which ends the sign-in.
    case customAnswerRefused(round: Int)
    case endedWithoutSession
}
