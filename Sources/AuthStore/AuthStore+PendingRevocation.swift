import CognitoAuth
import TokenVault

/// What a failed revocation attempt means for the refresh token. Only a passing failure (the network, a timeout,
/// the server's trouble, throttling) keeps it to try again; the server's answer that the token is already invalid
/// (revoked, expired, rotated away) means no one can use it, which is what revoking wanted; any other refusal (the
/// client not allowed to revoke, TLS refused) would fail the same way every time, so it is reported and not kept.
public enum RevocationVerdict: Sendable, Equatable {
    case keepPending
    case alreadyInvalid
    case refused

    public init(after error: CognitoError) {
        if error.isRetryable {
            self = .keepPending
            return
        }
        switch error {
        case .notAuthorized, .refreshTokenRejected, .refreshTokenReuse: self = .alreadyInvalid
        case .unknownService(let type, _, _) where type == "invalid_grant": self = .alreadyInvalid
        default: self = .refused
        }
    }
}

/// How retrying the revocations an earlier sign-out left pending went.
public struct RevocationRetry: Sendable, Equatable {
    /// Revoked now (or found dead at the server).
    public var revoked = 0
    /// Still pending: the retry failed for a passing reason again.
    public var stillPending = 0
    /// Refused for good (see `RevocationVerdict.refused`): dropped, and valid at the server until they expire.
    public var refused = 0
    /// Why the last retry failed, in words (never a token).
    public var failure: String?

    public init(revoked: Int = 0, stillPending: Int = 0, refused: Int = 0, failure: String? = nil) {
        self.revoked = revoked
        self.stillPending = stillPending
        self.refused = refused
        self.failure = failure
    }
}

/// A revocation still to be done, without its token: for `status`.
public struct PendingRevocationFacts: Sendable, Equatable {
    public let origin: SessionOrigin
    /// Unix seconds, this machine's clock: what times the refresh token's validity.
    public let signedInAt: Double?
    public let lastRefreshAt: Double?
    public let lastTriedAt: Double
    public let lastFailure: String

    init(_ pending: PendingRevocation) {
        origin = pending.origin
        signedInAt = pending.signedInAt
        lastRefreshAt = pending.lastRefreshAt
        lastTriedAt = pending.lastTriedAt
        lastFailure = pending.lastFailure
    }
}

extension SessionAuthority {
    /// Revokes a kept refresh token: the one use a `PendingRevocation` has (it never becomes a session to refresh).
    func revoke(_ pending: PendingRevocation) async throws(CognitoError) {
        try await revoke(
            StoredSession(refreshToken: pending.refreshToken, username: "", origin: pending.origin, idToken: nil))
    }
}

extension AuthStore {
    /// The revocations an earlier sign-out left pending, without their tokens, as the store last read or wrote them.
    public func pendingRevocations() -> [PendingRevocationFacts] {
        record?.pendingRevocations.map(PendingRevocationFacts.init) ?? []
    }

    /// Tries again to revoke what an earlier sign-out could not; nil when nothing was pending. A failure to reach the
    /// server keeps them (with the newest reason); the vault's own failure is reported the same way and changes nothing.
    @discardableResult
    public func retryPendingRevocations() async -> RevocationRetry? {
        do {
            let written = try await updateRecord { (stored: inout CredentialRecord?) async -> RevocationRetry? in
                guard var kept = stored, !kept.pendingRevocations.isEmpty else { return nil }
                var retry = RevocationRetry()
                kept.pendingRevocations = await self.revokeEach(kept.pendingRevocations, into: &retry)
                stored = kept.hasSession || kept.outlivesSession ? kept : nil
                return retry
            }
            adoptPendingRevocations(of: written.record)
            return written.outcome
        } catch {
            let pending = record?.pendingRevocations.count ?? 0
            return pending == 0
                ? nil : RevocationRetry(stillPending: pending, failure: "reading the vault: \(error.storeError)")
        }
    }

    /// Drops every pending revocation without revoking it (the user's choice); returns how many there were.
    public func forgetPendingRevocations() async throws(AuthStoreError) -> Int {
        do {
            let written = try await updateRecord { (stored: inout CredentialRecord?) -> Int in
                guard var kept = stored, !kept.pendingRevocations.isEmpty else { return 0 }
                let count = kept.pendingRevocations.count
                kept.pendingRevocations = []
                stored = kept.hasSession || kept.outlivesSession ? kept : nil
                return count
            }
            adoptPendingRevocations(of: written.record)
            return written.outcome
        } catch {
            throw error.storeError
        }
    }

    /// Keeps a refresh token whose revocation failed for a passing reason, to try again later.
    func keepForRetry(_ pending: PendingRevocation) async throws(AuthStoreError) {
        let profile = self.profile
        do {
            let written = try await updateRecord { (stored: inout CredentialRecord?) in
                var kept = stored ?? CredentialRecord(profile: profile)
                kept.pendingRevocations.append(pending)
                stored = kept
            }
            adoptPendingRevocations(of: written.record)
        } catch {
            throw error.storeError
        }
    }

    /// Revokes each, and returns those still to be done (their failure noted).
    func revokeEach(_ pending: [PendingRevocation], into retry: inout RevocationRetry) async -> [PendingRevocation] {
        var left: [PendingRevocation] = []
        for var each in pending {
            do {
                try await authority.revoke(each)
                retry.revoked += 1
            } catch {
                switch RevocationVerdict(after: error) {
                case .alreadyInvalid:
                    retry.revoked += 1
                case .refused:
                    retry.refused += 1
                    retry.failure = error.description
                case .keepPending:
                    each.lastTriedAt = now()
                    each.lastFailure = error.description
                    retry.failure = error.description
                    retry.stillPending += 1
                    left.append(each)
                }
            }
        }
        return left
    }
}
