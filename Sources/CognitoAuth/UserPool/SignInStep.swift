/// Where a sign-in stands after a call: done, or waiting for the user to answer a challenge.
public enum SignInStep: Sendable, CustomStringConvertible {
    case signedIn(CognitoTokens)
    case challenge(AuthChallenge)

    public var description: String {
        switch self {
        case .signedIn(let tokens): "signed in: \(tokens)"
        case .challenge(let challenge): "challenge: \(challenge)"
        }
    }
}

/// How `signIn` proves the password.
public enum AuthFlow: String, Sendable, CaseIterable {
    /// The password never leaves the machine (the default of Cognito app clients).
    case userSRP = "USER_SRP_AUTH"
    /// The password is sent over TLS; needed for users migrated by a Lambda trigger.
    case userPassword = "USER_PASSWORD_AUTH"
}
