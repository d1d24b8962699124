import AuthCrypto
import CognitoAuth

extension ProfileSession {
    /// The signed-in user's access token, refreshed first when it is due, for a call on the user's account. A machine
    /// profile has no user: its token would only have the user pool refuse it, so it is not even fetched.
    public func accessToken() async throws(ApplicationError) -> SecretBytes {
        guard profile.grant == .user else { throw .machineHasNoUser(profile: profile.name) }
        do { return try await store.validAccessToken() } catch { throw ApplicationError(error, need: signInNeed) }
    }

    /// One call to the user-pool API, around the store.
    func cognito<Result>(_ body: (CognitoClient) async throws(CognitoError) -> Result) async throws(ApplicationError)
        -> Result
    {
        let client = try await accountClient()
        do { return try await body(client) } catch { throw ApplicationError(error, need: signInNeed) }
    }

    /// One call made with the session's access token (`ApplicationError(tokenCall:need:)` says what its refusal means).
    func withToken<Result>(
        _ accessToken: SecretBytes, _ body: (CognitoClient, SecretBytes) async throws(CognitoError) -> Result
    ) async throws(ApplicationError) -> Result {
        let client = try await accountClient()
        do { return try await body(client, accessToken) } catch {
            throw ApplicationError(tokenCall: error, need: signInNeed)
        }
    }

    /// The signed-in user as the vault recorded them, for a line a person reads.
    func signedInName() async -> String? {
        await store.recordFacts()?.identity?.displayName
    }
}

/// An answer a use asks for, its failure the application's.
func asked<T>(_ body: () throws(AnswerError) -> T) throws(ApplicationError) -> T {
    do { return try body() } catch { throw .answer(error) }
}
