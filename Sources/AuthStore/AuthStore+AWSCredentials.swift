import CognitoAuth
import TokenVault

extension AuthStore {
    /// AWS credentials from the profile's identity pool: the vault's while they last `minimumValidity`, else a new
    /// set — GetId once per user (the identity id is kept with the session), then GetCredentialsForIdentity with a
    /// valid ID token — fetched by one process at a time under the profile lock and saved with the session.
    public func validAWSCredentials(_ request: AWSCredentialRequest) async throws(AuthStoreError) -> AWSCredentials {
        await bootstrap()
        if let record, let cached = usableCredentials(in: record, request) { return cached }
        // The ID token first, outside the lock: a refresh takes the profile lock itself.
        if request.providerName != nil { _ = try await validIDToken() }
        do {
            return try await updateRecord(
                { (record: inout CredentialRecord?) async throws(AuthStoreError) in
                    try await self.fetchHoldingLock(request, into: &record)
                }, event: { _, _ in .awsCredentialsSaved }
            ).outcome
        } catch {
            throw error.storeError
        }
    }

    /// Given the vault's record as just re-read (another process may have fetched while we waited), fetches only if
    /// still needed, and keeps the identity id and the credentials in the record, which is saved before they are
    /// handed out.
    private func fetchHoldingLock(_ request: AWSCredentialRequest, into record: inout CredentialRecord?)
        async throws(AuthStoreError) -> AWSCredentials
    {
        var latest = record ?? CredentialRecord(profile: profile)
        if let cached = usableCredentials(in: latest, request) { return cached }
        var login: IdentityProviderLogin?
        if let provider = request.providerName {
            // The vault's ID token is the session's newest: the one just checked, or one another process refreshed.
            guard latest.hasSession, let idToken = latest.idToken else { throw .signInRequired(.signedOutElsewhere) }
            login = IdentityProviderLogin(providerName: provider, idToken: idToken)
        }
        let scope = request.pool.scope
        // An identity id belongs to one pool: one kept for another (or an unrecorded) pool is asked for anew.
        let knownIdentity = latest.identityPoolId == scope.identityPoolId ? latest.identityId : nil
        let credentials: AWSCredentials
        do {
            credentials = try await Self.fetch(from: request.pool, identityId: knownIdentity, login: login)
        } catch {
            throw error.isRetryable ? .network(error) : .rejected(error)
        }
        latest.identityId = credentials.identityId
        latest.identityPoolId = scope.identityPoolId
        latest.awsCredentials = AWSCredentialEntry(
            accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey,
            sessionToken: credentials.sessionToken, expiresAt: credentials.expiresAt,
            scope: scope)
        record = latest
        return credentials
    }

    /// GetId unless the identity is known, then GetCredentialsForIdentity; an identity the pool no longer has is
    /// replaced by a new one, once.
    private static func fetch(
        from pool: any IdentityPoolAuthority, identityId known: String?, login: IdentityProviderLogin?
    ) async throws(CognitoError) -> AWSCredentials {
        if let known {
            do {
                return try await pool.credentials(identityId: known, login: login)
            } catch {
                guard case .identityPoolNotFound = error else { throw error }
            }
        }
        return try await pool.credentials(identityId: try await pool.identityId(login: login), login: login)
    }

    /// The record's credentials, if they last as long as asked and belong to what is asked for: the same pool and
    /// role, and a session's (or a guest's when no session is asked for).
    private func usableCredentials(in record: CredentialRecord, _ request: AWSCredentialRequest) -> AWSCredentials? {
        guard let entry = record.awsCredentials, let identityId = record.identityId,
            entry.scope == request.pool.scope, record.identityPoolId == request.pool.scope.identityPoolId,
            record.hasSession == (request.providerName != nil),
            entry.expiresAt - clock.now() >= request.minimumValidity
        else { return nil }
        return AWSCredentials(
            accessKeyId: entry.accessKeyId, secretAccessKey: entry.secretAccessKey,
            sessionToken: entry.sessionToken, expiresAt: entry.expiresAt, identityId: identityId)
    }
}
