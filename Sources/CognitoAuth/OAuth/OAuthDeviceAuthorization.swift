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
    /// The verification URI's host (and port, when it names one), as parsed: what the person is told to check.
    public let verificationHost: String
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

    /// The user code: 1 to 32 letters, digits and dashes (RFC 8628 section 6.1 suggests 8 characters of a
    /// case-insensitive set). Anything else could be an instruction dressed as a code ("run: curl ... | sh").
    public static let userCodeLimit = 32

    /// - Parameter endpoint: the device authorization endpoint the answer came from: plain http verification URIs
    ///   are accepted only when it too is plain http at a loopback address (a local test provider).
    init(body: [UInt8], endpoint: String) throws(OAuthError) {
        func invalid(_ reason: String) -> OAuthError {
            .invalidResponse(operation: OAuthOperation.deviceAuthorization.rawValue, reason: reason)
        }
        guard let answer = JSONValue.parse(body)?.dictionary else { throw invalid("the body is not a JSON object") }
        guard let deviceCode = answer["device_code"]?.string, !deviceCode.isEmpty,
            let userCode = answer["user_code"]?.string, !userCode.isEmpty,
            let verificationURI = answer["verification_uri"]?.string,
            let expiresIn = answer["expires_in"]?.number
        else {
            throw invalid("it lacks device_code, user_code, verification_uri or expires_in")
        }
        // Reasons name the rule broken, never the text: a hostile answer gets none of its words shown.
        guard userCode.unicodeScalars.count <= Self.userCodeLimit,
            userCode.unicodeScalars.allSatisfy(Self.isUserCodeCharacter)
        else {
            throw invalid("the user code is not 1 to \(Self.userCodeLimit) letters, digits and dashes")
        }
        let complete = answer["verification_uri_complete"]?.string
        let loopbackHTTPEndpoint =
            ServiceURL(endpoint).map { $0.scheme == "http" && $0.authority.host.isLoopback } ?? false
        guard let verification = Self.verificationAddress(verificationURI, loopbackHTTPEndpoint: loopbackHTTPEndpoint)
        else {
            throw invalid(
                "the verification URI is not an https URL (or http at a loopback address, from a loopback http endpoint)"
            )
        }
        if let complete {
            guard Self.verificationAddress(complete, loopbackHTTPEndpoint: loopbackHTTPEndpoint) == verification else {
                throw invalid("verification_uri_complete is not an https URL at the verification URI's host")
            }
        }
        guard let lifetime = Self.wholeSeconds(expiresIn, in: Self.lifetimeRange) else {
            throw invalid(
                "expires_in is not a whole number of seconds from \(Self.lifetimeRange.lowerBound) to \(Self.lifetimeRange.upperBound)"
            )
        }
        let interval: Int
        switch answer["interval"] {
        case nil, .null?: interval = Self.defaultInterval
        case let value?:
            guard let seconds = value.number.flatMap({ Self.wholeSeconds($0, in: Self.intervalRange) }) else {
                throw invalid(
                    "interval is not a whole number of seconds from \(Self.intervalRange.lowerBound) to \(Self.intervalRange.upperBound)"
                )
            }
            interval = seconds
        }
        self.deviceCode = SecretBytes(utf8: deviceCode)
        self.userCode = userCode
        self.verificationURI = verificationURI
        verificationHost = verification.authority.description
        verificationURIComplete = complete
        self.expiresIn = lifetime
        self.interval = interval
    }

    private static func isUserCodeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-": true
        default: false
        }
    }

    /// The scheme and host of a verification URI that may be shown: https, or http at a loopback address when
    /// the endpoint is loopback http too (parsed by `ServiceURL`, never compared as a prefix); plain text, no
    /// spaces, a bounded length. Nil for any other.
    private static func verificationAddress(_ uri: String, loopbackHTTPEndpoint: Bool) -> ServiceURL? {
        guard uri.utf8.count <= 2048, ServerText.isPlain(uri), !uri.contains(" "), let url = ServiceURL(uri) else {
            return nil
        }
        switch url.scheme {
        case "https": return url
        case "http" where url.authority.host.isLoopback && loopbackHTTPEndpoint: return url
        default: return nil
        }
    }

    private static func wholeSeconds(_ value: Double, in range: ClosedRange<Int>) -> Int? {
        guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            return nil
        }
        return Int(value)
    }

    public var description: String {
        "OAuthDeviceAuthorization(user code \(userCode) at \(verificationURI), \(expiresIn) s, every \(interval) s, <device code redacted>)"
    }
}
