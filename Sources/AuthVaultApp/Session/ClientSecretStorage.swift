import AuthCrypto
import AuthStore

extension ProfileSession {
    /// Keeps the app client's secret in the profile's vault record, beside any session, through the profile's
    /// store (nil: removes it). A sign-out keeps it; the next sign-in or token request uses it.
    public func storeClientSecret(_ secret: SecretBytes?) async throws(ApplicationError) {
        do { try await store.setClientSecret(secret) } catch { throw ApplicationError(error, need: signInNeed) }
    }
}
