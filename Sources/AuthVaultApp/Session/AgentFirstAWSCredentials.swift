import AuthAgent
import AuthStore
import CognitoAuth

extension ProfileSession {
    /// What the store needs to hand out the profile's AWS credentials: its identity pool and, for the user (not a
    /// guest), the `Logins` name its ID tokens go under: the issuer without `https://`, which for a user pool is
    /// `cognito-idp.{region}.amazonaws.com/{userPoolId}`.
    func awsCredentialRequest(guest: Bool) throws(ApplicationError) -> AWSCredentialRequest {
        let pool: IdentityPoolClient?
        do { pool = try authority.identityPoolClient() } catch { throw ApplicationError(error, need: signInNeed) }
        guard let pool else { throw .configuration(.incomplete(profile: profile.name, missing: "--identity-pool-id")) }
        return AWSCredentialRequest(
            pool: pool, providerName: guest ? nil : IdentityProviderLogin.providerName(issuer: profile.issuer))
    }
}

extension Application {
    /// AWS credentials for `profile` (`defaultProfileName` when nil) from its identity pool, lasting at least the
    /// store's minimum (botocore's refresh window and a minute), without ever asking anyone to sign in: from the
    /// agent when one runs, else from the vault or, when they near expiry, a new set under the profile lock.
    /// - Parameter guest: the pool's unauthenticated identity, for a profile without a session.
    /// - Parameter isExplicit: as for `helperToken`: unnamed, on a machine that configures none, the agent chooses.
    nonisolated(nonsending) public func awsCredentials(
        profile: String? = nil, guest: Bool = false, isExplicit: Bool = true
    )
        async throws(ApplicationError) -> AWSCredentials
    {
        let name = profile ?? defaultProfileName
        let agent = try awsCredentialsFromAgent(profile: name, guest: guest, isExplicit: profile != nil && isExplicit)
        if case .served(let credentials) = agent { return credentials }
        let session = try await directSession(named: name, after: agent)
        let request = try session.awsCredentialRequest(guest: guest)
        await session.store.bootstrap()
        if guest, await session.store.recordFacts()?.hasSession == true { throw .signedInForGuest(profile: name) }
        do {
            return try await session.store.validAWSCredentials(request).expiringOnLocalClock(of: session.store.clock)
        } catch {
            throw ApplicationError(error, need: session.signInNeed)
        }
    }

    /// The agent's answer; the direct path when no agent runs, or it cannot say (then the direct path says why).
    private func awsCredentialsFromAgent(profile: String, guest: Bool, isExplicit: Bool) throws(ApplicationError)
        -> AgentAnswer<AWSCredentials>
    {
        guard let path = agentSocketPath else { return .direct(unreachable: nil) }
        do {
            // Long enough for a fetch from the identity pool; an agent that hangs costs this once.
            let client = AgentClient(socketPath: path, timeout: .seconds(10), agentUid: agentUid)
            return .served(
                try askingAgent(profile: profile, isExplicit: isExplicit) { (name) throws(AgentClientError) in
                    try client.awsCredentials(profile: name, guest: guest)
                })
        } catch {
            return try finalAgentAnswer(error, profile: profile, path: path)
        }
    }
}
