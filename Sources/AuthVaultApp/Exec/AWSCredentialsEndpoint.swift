import AuthCrypto
import AuthStore
import BoundedJSON
import CognitoAuth
import FoundationEssentials
import Loopback

/// The AWS SDKs' container-credentials endpoint that `exec --aws` gives its command, for as long as it runs: the
/// AWS CLI and every SDK read `AWS_CONTAINER_CREDENTIALS_FULL_URI` (plain http only to a loopback address) and send
/// `AWS_CONTAINER_AUTHORIZATION_TOKEN` as the `Authorization` header; each answer holds the profile's credentials,
/// fetched anew once fewer than 15 minutes remain (`Application.awsCredentials`), and the SDKs ask again 15 minutes
/// before their `Expiration`, so a job longer than one set of credentials never runs out.
///
/// Only the holder of the per-run token on this machine's loopback gets an answer: without it 401, with a wrong one
/// 403 (the endpoint's own check); nothing else is ever served.
public final class AWSCredentialsEndpoint: Sendable {
    /// The two variables the command gets: the endpoint's URL and the per-run token.
    public let environment: [(String, String)]
    private let endpoint: LoopbackEndpoint
    private let serving: Task<Void, Never>
    private let warming: Task<Void, Never>

    static let path = "/authvault/aws-credentials"

    /// Binds 127.0.0.1 on a port the kernel chooses and starts serving.
    /// - Parameters:
    ///   - credentials: the profile's current credentials, asked for on every request.
    ///   - token: the per-run token, 32 random bytes in base64url unless a test chooses it.
    ///   - inHand: when the set the caller has (it asked once before starting anything) expires.
    ///   - now: Unix seconds by this machine's clock, which the credentials' expiry is given by.
    public init(
        token: String = Base64URL.encode(SecureRandom.bytes(count: 32)), inHand: Double,
        now: @escaping @Sendable () -> Double,
        credentials: @escaping @Sendable () async throws(ApplicationError) -> AWSCredentials
    ) throws(ApplicationError) {
        do {
            endpoint = try LoopbackEndpoint(path: Self.path, token: token)
        } catch {
            throw ApplicationError(error)
        }
        environment = [
            ("AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.url), ("AWS_CONTAINER_AUTHORIZATION_TOKEN", token),
        ]
        let requests = endpoint.requests
        warming = Self.keepWarm(from: inHand, now: now, credentials: credentials)
        serving = Task {
            // One at a time: each answer is a vault read (a fetch only near expiry), and the SDKs ask rarely.
            for await request in requests {
                do {
                    request.respond(json: Self.document(try await credentials()))
                } catch {
                    // The SDK shows this text: the reason, never a secret (ApplicationError carries none).
                    var message: [UInt8] = []
                    JSONValue.object(["message": .string("AuthVault could not get the credentials: \(error)")])
                        .write(into: &message)
                    request.fail(json: message)
                }
            }
        }
    }

    deinit {
        close()
    }

    /// Asks for the credentials each time the set in hand crosses the store's minimum lifetime, so that the store
    /// fetches the next set then, a minute before the SDKs come for it (at 15 minutes left), and answers them from
    /// the vault at once: some SDKs give the endpoint a second or two. A set with less than that minimum left (a pool
    /// that issues short-lived credentials, a failed fetch) is looked at again no sooner than 30 seconds later.
    static func keepWarm(
        from inHand: Double, now: @escaping @Sendable () -> Double,
        credentials: @escaping @Sendable () async throws(ApplicationError) -> AWSCredentials
    ) -> Task<Void, Never> {
        let minimum = AWSCredentialRequest.defaultMinimumValidity
        return AheadOfExpiry.keepRenewing(
            expiresAt: inHand, now: now,
            schedule: { left in left > minimum ? left - minimum + 1 : max(30, left - 600) },
            retryAfter: 0
        ) {
            try? await credentials().expiresAt
        }
    }

    /// Stops serving: the port is closed when this returns.
    public func close() {
        endpoint.close()
        serving.cancel()
        warming.cancel()
    }

    /// The container-credentials document: `Token`, not `SessionToken` as in `credential_process`.
    static func document(_ credentials: AWSCredentials) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONValue.object([
            "AccessKeyId": .string(credentials.accessKeyId), "SecretAccessKey": .secret(credentials.secretAccessKey),
            "Token": .secret(credentials.sessionToken), "Expiration": .string(TimeText.rfc3339(credentials.expiresAt)),
        ]).write(into: &bytes)
        return bytes
    }
}

extension Application {
    /// `exec --aws`'s endpoint for `profile` (`defaultProfileName` when nil), every answer from `awsCredentials`.
    /// Asks once before it starts: no session, no pool or no network is said now, not by the command's SDK.
    /// `isExplicit` as for `awsCredentials`: unnamed, on a machine that configures none, the agent chooses.
    public func awsCredentialsEndpoint(profile: String? = nil, guest: Bool = false, isExplicit: Bool)
        async throws(ApplicationError) -> AWSCredentialsEndpoint
    {
        let inHand = try await awsCredentials(profile: profile, guest: guest, isExplicit: isExplicit)
        return try AWSCredentialsEndpoint(inHand: inHand.expiresAt, now: now) { () async throws(ApplicationError) in
            try await self.awsCredentials(profile: profile, guest: guest, isExplicit: isExplicit)
        }
    }
}
