import AuthCrypto
import BoundedJSON
import NetworkHosts

/// The device authorization endpoint's answer (RFC 8628 section 3.2): the code the user types at the verification
/// URI, and the device code this client polls the token endpoint with. Every field is checked before it is shown
/// or waited on: the URIs and the user code reach a terminal, the interval and lifetime a sleep.
public struct OAuthDeviceAuthorization: Sendable, CustomStringConvertible {
    /// Redeems the user's approval at the token endpoint: never shown.
    public let deviceCode: SecretBytes
    /// What the user types at `verificationURI`; shown, and worthless without the approval of a signed-in user.
    public let userCode: String
    public let verificationURI: String
    /// The verification URI with the user code in it, where the provider gives one.
    public let verificationURIComplete: String?
    /// Seconds the codes live.
    public let expiresIn: Int
    /// Seconds to wait after each answer of the token endpoint before asking again.
    public let interval: Int

    /// Up to a day: providers give minutes (DOT 30, Google 30, Microsoft 15).
    public static let lifetimeRange = 1...86_400
    /// RFC 8628's default is 5 s; more than 5 minutes between polls would outlast most codes.
    public static let intervalRange = 1...300
    public static let defaultInterval = 5

    init(body: [UInt8]) throws(OAuthError) {
        func invalid(_ reason: String) -> OAuthError {
            .invalidResponse(operation: OAuthOperation.deviceAuthorization.rawValue, reason: reason)
        }
        guard let answer = JSONValue.parse(body)?.dictionary else { throw invalid("the body is not a JSON object") }
        guard let deviceCode = answer["device_code"]?.string, !deviceCode.isEmpty,
              let userCode = answer["user_code"]?.string, !userCode.isEmpty,
              let verificationURI = answer["verification_uri"]?.string,
              let expiresIn = answer["expires_in"]?.number else {
            throw invalid("it lacks device_code, user_code, verification_uri or expires_in")
        }
        guard userCode.count <= 64, ServerText.isPlain(userCode) else { throw invalid("the user code is not a short line of plain text") }
        let complete = answer["verification_uri_complete"]?.string
        for uri in [verificationURI] + (complete.map { [$0] } ?? []) {
            guard ServiceURL.isPermitted(uri), ServerText.isPlain(uri), !uri.contains(" "), uri.count <= 2048 else {
                throw invalid("a verification URI is not a plain https URL (or http on a loopback address)")
            }
        }
        guard let lifetime = Self.wholeSeconds(expiresIn, in: Self.lifetimeRange) else {
            throw invalid("expires_in is not a whole number of seconds from \(Self.lifetimeRange.lowerBound) to \(Self.lifetimeRange.upperBound)")
        }
        let interval: Int
        switch answer["interval"] {
        case nil, .null?: interval = Self.defaultInterval
        case let value?:
            guard let seconds = value.number.flatMap({ Self.wholeSeconds($0, in: Self.intervalRange) }) else {
                throw invalid("interval is not a whole number of seconds from \(Self.intervalRange.lowerBound) to \(Self.intervalRange.upperBound)")
            }
            interval = seconds
        }
        self.deviceCode = SecretBytes(utf8: deviceCode)
        self.userCode = userCode
        self.verificationURI = verificationURI
        verificationURIComplete = complete
        self.expiresIn = lifetime
        self.interval = interval
    }

    private static func wholeSeconds(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else { return nil }
        return Int(value)
    }

    public var description: String {
        "OAuthDeviceAuthorization(user code \(userCode) at \(verificationURI), \(expiresIn) s, every \(interval) s, <device code redacted>)"
    }
}
