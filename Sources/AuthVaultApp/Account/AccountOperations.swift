import CognitoAuth

/// What Cognito is asked to send a code for.
public enum CodeRequest: Sendable {
    /// Another code to confirm an account that is signed up but not confirmed yet.
    case signUpConfirmation
    /// A code to reset a forgotten password.
    case passwordReset
}

// The account operations of a profile's user pool: signing up, confirming, resetting and changing passwords. Each
// opens the profile, then asks its answers in the order a person expects, and sends nothing before it has them.
extension Application {
    /// Registers a user; returns the user name and Cognito's answer (the user's id, whether a code was sent).
    public func signUp(
        profile: String, attributes: [String: String],
        answers: inout Answers
    ) async throws(ApplicationError) -> (username: String, result: SignUpResult) {
        let session = try await openProfile(named: profile)
        let username = try asked { () throws(AnswerError) in try answers.username() }
        let password = try asked { () throws(AnswerError) in
            try answers.newPassword(prompt: "Password for \(username): ")
        }
        let result = try await session.cognito { client throws(CognitoError) in
            try await client.signUp(username: username, password: password, attributes: attributes)
        }
        return (username, result)
    }

    /// Confirms a new account with the code Cognito sent; returns the user name.
    public func confirmSignUp(profile: String, answers: inout Answers) async throws(ApplicationError) -> String {
        let session = try await openProfile(named: profile)
        let username = try asked { () throws(AnswerError) in try answers.username() }
        let code = try asked { () throws(AnswerError) in
            try answers.secret(.code, prompt: "Confirmation code for \(username): ")
        }
        try await session.cognito { client throws(CognitoError) in
            try await client.confirmSignUp(username: username, code: code)
        }
        return username
    }

    /// Has Cognito send the user a code; returns the user name and where it went, as Cognito masks it.
    public func requestCode(
        _ request: CodeRequest, profile: String,
        answers: Answers
    ) async throws(ApplicationError) -> (username: String, delivery: CodeDeliveryDetails?) {
        let session = try await openProfile(named: profile)
        let username = try asked { () throws(AnswerError) in try answers.username() }
        let delivery = try await session.cognito { client throws(CognitoError) in
            switch request {
            case .signUpConfirmation: try await client.resendConfirmationCode(username: username)
            case .passwordReset: try await client.forgotPassword(username: username)
            }
        }
        return (username, delivery)
    }

    /// Sets a new password with the reset code; the profile's session, if any, stays as it is. Returns the user name.
    public func confirmForgotPassword(profile: String, answers: inout Answers) async throws(ApplicationError) -> String
    {
        let session = try await openProfile(named: profile)
        let username = try asked { () throws(AnswerError) in try answers.username() }
        let code = try asked { () throws(AnswerError) in
            try answers.secret(.code, prompt: "Reset code for \(username): ")
        }
        let newPassword = try asked { () throws(AnswerError) in try answers.newPassword() }
        try await session.cognito { client throws(CognitoError) in
            try await client.confirmForgotPassword(username: username, code: code, newPassword: newPassword)
        }
        return username
    }

    /// Changes the signed-in user's password; the session stays signed in. Returns the user's name as stored.
    public func changePassword(profile: String, answers: inout Answers) async throws(ApplicationError) -> String? {
        let session = try await openProfile(named: profile)
        let accessToken = try await session.accessToken()
        let current = try asked { () throws(AnswerError) in try answers.secret(.password, prompt: "Current password: ")
        }
        let proposed = try asked { () throws(AnswerError) in try answers.newPassword() }
        // Here NotAuthorized is most often the current password being wrong, so it is not read as "sign in again".
        try await session.cognito { client throws(CognitoError) in
            try await client.changePassword(
                accessToken: accessToken, previousPassword: current, proposedPassword: proposed)
        }
        return await session.signedInName()
    }
}
