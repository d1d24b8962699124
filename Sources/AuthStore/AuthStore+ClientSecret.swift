import AuthCrypto
import TokenVault

extension AuthStore {
    /// Keeps the app client's secret in the profile's record, beside any session (nil: removes it). The secret
    /// outlives sessions: a sign-out keeps it.
    public func setClientSecret(_ secret: SecretBytes?) async throws(AuthStoreError) {
        await bootstrap()
        let profile = self.profile
        do {
            try await updateRecord(
                { (record: inout CredentialRecord?) throws(AuthStoreError) in
                    var updated = record ?? CredentialRecord(profile: profile)
                    updated.clientSecret = secret
                    record = updated
                }, event: { _, _ in .clientSecretSaved })
        } catch {
            throw error.storeError
        }
    }
}
