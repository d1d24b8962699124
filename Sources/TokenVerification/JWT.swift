import AuthCrypto
import BoundedJSON
import FoundationEssentials
import HTTPTransport

/// A compact-serialized JWS as Cognito issues it: header, claims and signature, decoded but not yet trusted.
public struct JWT: Sendable {
    public struct Header: Sendable, Decodable, Equatable {
        public let alg: String
        public let kid: String?
        public let typ: String?
    }

    public let header: Header
    public let claims: Claims
    /// The bytes the signature covers: `base64url(header) "." base64url(claims)`.
    let signingInput: [UInt8]
    let signature: [UInt8]

    public init(compact token: some StringProtocol) throws(TokenError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("expected three dot-separated parts") }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw .malformed("the header is not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
        } catch {
            throw .malformed("the header is not a JSON object with 'alg'")
        }
        claims = try Claims(encodedPayload: parts[1])
        signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }
}

/// A JWT's claims, with typed accessors for the ones Cognito's tokens carry.
public struct Claims: Sendable, Equatable {
    public let all: [String: JSONValue]

    /// The one JWT-payload decoder: a compact token's middle part, base64url-decoded, parsed by the bounded parser.
    init(encodedPayload part: some StringProtocol) throws(TokenError) {
        guard let bytes = Base64URL.decode(part) else { throw .malformed("the claims are not base64url") }
        guard let all = JSONValue.parse(bytes)?.dictionary else { throw .malformed("the claims are not a JSON object") }
        self.all = all
    }

    /// The claims of a token that was verified when it arrived, decoded again to read them (its lifetime, its
    /// user); nil when the token is not a compact JWT. Decoding only: nothing here is verified.
    public init?(unverifiedPayloadOf token: SecretBytes) {
        let decoded: Claims? = token.withUnsafeBytes { bytes in
            // Three parts, by the dots' offsets: `split`'s array of slices costs a run-time conformance look-up
            // (0.2 M instructions) on the warm token path.
            let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
            guard dots.count == 2 else { return nil }
            return try? Claims(encodedPayload: String(decoding: bytes[(dots[0] + 1)..<dots[1]], as: UTF8.self))
        }
        guard let decoded else { return nil }
        self = decoded
    }

    public subscript(name: String) -> JSONValue? { all[name] }

    public var issuer: String? { all["iss"]?.string }
    public var subject: String? { all["sub"]?.string }
    /// `aud` as a list, whether the token carries one string or an array.
    public var audience: [String] {
        switch all["aud"] {
        case .string(let value): return [value]
        case .array(let values): return values.compactMap(\.string)
        default: return []
        }
    }
    /// The times are read only within `ServerTime.unixSeconds` (the verifier refuses a token with one beyond), so
    /// no reader of a stored token converts an absurd one.
    public var expiresAt: Double? { time("exp") }
    public var notBefore: Double? { time("nbf") }
    public var issuedAt: Double? { time("iat") }
    public var tokenUse: String? { all["token_use"]?.string }

    /// The time claims present but not a time between 1970 and 9999 (1e300, -5, a string).
    var timesOutOfRange: [String] {
        ["exp", "nbf", "iat"].filter { all[$0] != nil && time($0) == nil }
    }

    private func time(_ claim: String) -> Double? {
        all[claim]?.number.flatMap { ServerTime.unixSeconds.contains($0) ? $0 : nil }
    }
    public var clientId: String? { all["client_id"]?.string }
    public var nonce: String? { all["nonce"]?.string }
    /// Cognito's user name: `cognito:username` in ID tokens, `username` in access tokens.
    public var username: String? { all["cognito:username"]?.string ?? all["username"]?.string }
    public var email: String? { all["email"]?.string }

    /// The federated identities of a user who signed in through an external provider (Google, ...).
    public var identities: [FederatedIdentity] {
        (all["identities"]?.array ?? []).compactMap { entry in
            guard let object = entry.dictionary, let provider = object["providerName"]?.string else { return nil }
            return FederatedIdentity(providerName: provider, userId: object["userId"]?.string ?? "")
        }
    }
}

/// An external identity linked to a Cognito user, from the `identities` claim.
public struct FederatedIdentity: Sendable, Equatable {
    public let providerName: String
    public let userId: String

    public init(providerName: String, userId: String) {
        self.providerName = providerName
        self.userId = userId
    }
}
