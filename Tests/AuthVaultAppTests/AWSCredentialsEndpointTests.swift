import AuthCrypto
import AuthStore
import AuthVaultApp
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport
import Testing

/// `exec --aws`'s endpoint as the use case serves it, with a credentials source of ours (the end-to-end tests use
/// the identity pool and the real AWS CLI): the container-credentials document for every authorized request, the
/// source asked each time, and a failure said in a JSON `message` with 503.
@Suite struct AWSCredentialsEndpointTests {
    @Test func eachAnswerIsTheSourcesCurrentSetAsTheSDKsReadIt() async throws {
        let asked = Locked(0)
        let endpoint = try AWSCredentialsEndpoint(inHand: 1_900_000_000, now: { 1_800_000_000 }) {
            () async throws(ApplicationError) in
            let number = asked.withLock { count in
                count += 1
                return count
            }
            guard number < 3 else {
                throw ApplicationError(
                    AuthStoreError.signInRequired(.refreshRejected("signed out \"elsewhere\"")),
                    need: SignInNeed(profile: "work"))
            }
            return AWSCredentials(
                accessKeyId: "ASIA\(number)", secretAccessKey: SecretBytes(utf8: "secret-\(number)"),
                sessionToken: SecretBytes(utf8: "session-\(number)"), expiresAt: 1_900_000_000, identityId: "id")
        }
        let variables = Dictionary(uniqueKeysWithValues: endpoint.environment)
        let url = try #require(variables["AWS_CONTAINER_CREDENTIALS_FULL_URI"])
        let token = try #require(variables["AWS_CONTAINER_AUTHORIZATION_TOKEN"])
        #expect(url.hasPrefix("http://127.0.0.1:") && Base64URL.decode(token)?.count == 32)

        for number in 1...2 {
            let answer = try await LoopbackHTTP.send(method: "GET", url: url, headers: ["Authorization": token])
            #expect(answer.status == 200)
            #expect(answer.json["AccessKeyId"] as? String == "ASIA\(number)")
            #expect(answer.json["SecretAccessKey"] as? String == "secret-\(number)")
            #expect(answer.json["Token"] as? String == "session-\(number)")
            #expect(answer.json["Expiration"] as? String == "2030-03-17T17:46:40Z")
        }
        let failed = try await LoopbackHTTP.send(method: "GET", url: url, headers: ["Authorization": token])
        #expect(failed.status == 503)
        #expect((failed.json["message"] as? String)?.contains("signed out \"elsewhere\"") == true, "\(failed.json)")
        let refused = try await LoopbackHTTP.send(method: "GET", url: url)
        #expect(refused.status == 401 && asked.withLock { $0 } == 3, "no credentials without the token")

        endpoint.close()
        await #expect(throws: (any Error).self) {
            _ = try await LoopbackHTTP.send(method: "GET", url: url, headers: ["Authorization": token])
        }
    }

    /// A minute before the SDKs come (15 minutes before the expiry), the endpoint asks for the credentials itself, so
    /// that the store fetches the next set then; a set that arrives with less than that is not asked for in a loop.
    @Test(arguments: [(962.0, true), (900.0, false)])
    func theNextSetIsFetchedBeforeTheSDKsAskForIt(lifetime: Double, isRenewedEarly: Bool) async throws {
        let asked = Locked(0)
        let endpoint = try AWSCredentialsEndpoint(
            inHand: Date().timeIntervalSince1970 + lifetime, now: { Date().timeIntervalSince1970 }
        ) {
            () async throws(ApplicationError) in
            asked.withLock { $0 += 1 }
            return AWSCredentials(
                accessKeyId: "ASIA", secretAccessKey: SecretBytes(utf8: "s"), sessionToken: SecretBytes(utf8: "t"),
                expiresAt: Date().timeIntervalSince1970 + lifetime, identityId: "id")
        }
        try await Task.sleep(for: .seconds(4.5))
        endpoint.close()
        let count = asked.withLock { $0 }
        #expect(isRenewedEarly ? count >= 1 : count == 0, "\(count) asks")
    }
}
