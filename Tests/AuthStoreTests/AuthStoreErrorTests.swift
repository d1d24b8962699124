import AuthStore
import CognitoAuth
import HTTPTransport
import Testing

/// The store's messages add what the store knows to the client's reason, without saying the same thing twice.
@Suite struct AuthStoreErrorTests {
    @Test func networkTroubleIsSaidOnceAndKeepsTheSession() {
        let text = AuthStoreError.network(.network(.cannotConnect("Failed to connect to 127.0.0.1 port 9"))).description
        #expect(
            text
                == "Cannot reach Cognito: cannot connect: Failed to connect to 127.0.0.1 port 9. Try again when the network is back. The stored session is kept."
        )
        let throttled = AuthStoreError.network(.serverError(status: 503)).description
        #expect(
            throttled == "The Cognito endpoint failed (HTTP 503): try again in a moment. The stored session is kept.")
    }
}
