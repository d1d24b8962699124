import AuthCrypto
import HTTPTransport
import TokenVerification

/// The pace of a device sign-in's polling: a monotonic clock in seconds, and a sleep that ends early (throwing)
/// when the task is cancelled. Injected so tests need not wait.
public struct DevicePollingClock: Sendable {
    public let now: @Sendable () -> Double
    public let sleep: @Sendable (_ seconds: Int) async throws(CancellationError) -> Void

    public init(
        now: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (_ seconds: Int) async throws(CancellationError) -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// The continuous clock, and `Task.sleep`.
    public static let live: DevicePollingClock = {
        let start = ContinuousClock.now
        return DevicePollingClock(
            now: {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            },
            sleep: { seconds throws(CancellationError) in
                do { try await Task.sleep(for: .seconds(seconds)) } catch { throw CancellationError() }
            })
    }()
}

/// How a device sign-in ended without tokens (RFC 8628 section 3.5). Nothing here carries the device code.
public enum DeviceGrantError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user (or the provider) refused the sign-in: `access_denied`.
    case denied
    /// The codes expired before anyone approved them: `expired_token`, or `expires_in` passed here.
    case expired(afterSeconds: Int)
    /// The task was cancelled while it waited.
    case cancelled
    /// The provider refused or failed otherwise, or its tokens did not verify.
    case failed(OAuthError)

    public var description: String {
        switch self {
        case .denied: "The sign-in was refused at the verification page (access_denied)."
        case .expired(let seconds): "The code expired after \(seconds) s before the sign-in was approved."
        case .cancelled: "The device sign-in was cancelled."
        case .failed(let error): error.description
        }
    }
}

extension OAuthClient {
    /// Begins a device sign-in (RFC 8628 section 3.1): a user code for the person to enter at the verification
    /// URI, and the device code to poll with. The client authenticates as at the token endpoint.
    public func deviceAuthorization() async throws(OAuthError) -> OAuthDeviceAuthorization {
        guard let endpoint = configuration.endpoints.deviceAuthorization else {
            throw .invalidConfiguration("the authorization server has no device authorization endpoint")
        }
        let response = try await postForm(
            .deviceAuthorization, to: endpoint, [("scope", configuration.scopes.joined(separator: " "))],
            secrets: [])
        return try OAuthDeviceAuthorization(body: response.body, endpoint: endpoint)
    }

    /// Polls the token endpoint until the user approves or refuses at the verification URI, the codes expire, or
    /// the task is cancelled (RFC 8628 section 3.4). It waits the whole `interval` after each answer (servers compare
    /// whole seconds), 5 s more after each `slow_down`, and never past `expires_in`. The ID token is optional in
    /// this grant: when one comes it is verified (with no nonce, which this grant lacks); without one the user is who
    /// userinfo says.
    public func deviceTokens(
        for authorization: OAuthDeviceAuthorization, clock: DevicePollingClock = .live
    ) async throws(DeviceGrantError) -> OAuthTokens {
        let deadline = clock.now() + Double(authorization.expiresIn)
        var interval = authorization.interval
        let deviceCode = authorization.deviceCode.utf8String
        while true {
            do { try await clock.sleep(interval) } catch { throw .cancelled }
            guard clock.now() < deadline else { throw .expired(afterSeconds: authorization.expiresIn) }
            let response: HTTPResponse
            do {
                response = try await postForm(
                    .deviceCode, to: configuration.endpoints.token,
                    [
                        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                        ("device_code", deviceCode),
                    ], secrets: [deviceCode])
            } catch {
                switch error {
                case .refused(.authorizationPending, _, _, _): continue
                case .refused(.slowDown, _, _, _):
                    interval = min(interval + 5, OAuthDeviceAuthorization.intervalRange.upperBound)
                    continue
                case .refused(.accessDenied, _, _, _): throw .denied
                case .refused(.expiredToken, _, _, _): throw .expired(afterSeconds: authorization.expiresIn)
                case .network(.cancelled): throw .cancelled
                default: throw .failed(error)
                }
            }
            do {
                return try await tokens(from: response)
            } catch {
                throw .failed(error)
            }
        }
    }

    private func tokens(from response: HTTPResponse) async throws(OAuthError) -> OAuthTokens {
        let answer = try OAuthTokenResponse.decoded(from: response.body, .deviceCode)
        guard let refreshToken = answer.refreshToken else {
            throw .invalidResponse(
                operation: OAuthOperation.deviceCode.rawValue,
                reason: "the answer has no refresh token: allow the refresh-token grant for the app client")
        }
        var idToken: (compact: String, jwt: JWT)?
        if let token = answer.idToken { idToken = (token, try await verifiedIDToken(token, nonce: nil)) }
        return try await tokens(
            answer, idToken: idToken, refreshToken: SecretBytes(utf8: refreshToken), rotated: false,
            expectedSubject: nil, .deviceCode)
    }
}
