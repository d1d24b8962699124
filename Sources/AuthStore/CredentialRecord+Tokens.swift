import CognitoAuth
import TokenVault
import TokenVerification

extension CredentialRecord {
    /// Takes the verified tokens of a sign-in or refresh; a refresh that returned no new refresh token keeps the
    /// old one (CognitoTokens already carries it).
    mutating func store(_ tokens: CognitoTokens) {
        accessToken = tokens.accessToken
        idToken = tokens.idToken
        refreshToken = tokens.refreshToken
        accessTokenExpiresAt = tokens.accessTokenExpiresAt
        idTokenExpiresAt = tokens.idTokenExpiresAt
        let federated = identity?.federated ?? []
        identity = UserIdentity(
            username: tokens.identity.username, subject: tokens.identity.subject,
            email: tokens.identity.email, federated: federated)
    }

    /// Takes a machine token (the client-credentials grant) as the whole session: the app client stands for the
    /// user, and there is no ID or refresh token.
    mutating func store(_ token: MachineToken, at moment: Double) {
        clearSession()
        sessionEndedReason = nil
        accessToken = token.accessToken
        accessTokenExpiresAt = token.expiresAt
        identity = UserIdentity(username: token.clientId)
        origin = .clientCredentials
        signedInAt = moment
        lastRefreshAt = moment
    }

    /// Drops the session, keeping what is not part of it (the app client secret).
    mutating func clearSession() {
        accessToken = nil
        idToken = nil
        refreshToken = nil
        accessTokenExpiresAt = nil
        idTokenExpiresAt = nil
        identity = nil
        origin = nil
        signedInAt = nil
        lastRefreshAt = nil
        clockOffset = nil
        clockAnchor = nil
        refusedClockOffset = nil
        identityId = nil
        identityPoolId = nil
        awsCredentials = nil
    }

    /// When the token was issued (its `iat`) and when it expires, read from the token itself; the stored expiry
    /// and the last refresh stand in when the token cannot be decoded.
    func lifetime(of kind: TokenKind) -> (issuedAt: Double, expiresAt: Double)? {
        let token = kind == .access ? accessToken : idToken
        guard let token else { return nil }
        let claims = Claims(unverifiedPayloadOf: token)
        guard let expiresAt = claims?.expiresAt ?? (kind == .access ? accessTokenExpiresAt : idTokenExpiresAt) else {
            return nil
        }
        let issuedAt = claims?.issuedAt ?? lastRefreshAt ?? signedInAt ?? expiresAt - 3600
        return (issuedAt, expiresAt)
    }
}

/// Which of the session's tokens a caller wants.
public enum TokenKind: Sendable, Equatable {
    case access
    case id
}
