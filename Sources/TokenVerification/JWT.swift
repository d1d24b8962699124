import AuthCrypto
import FoundationEssentials

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
        guard let claimBytes = Base64URL.decode(parts[1]) else { throw .malformed("the claims are not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
        } catch {
            throw .malformed("the header is not a JSON object with 'alg'")
        }
        let object: [String: JSONValue]
        do {
            object = try JSONDecoder().decode([String: JSONValue].self, from: Data(claimBytes))
        } catch {
            throw .malformed("the claims are not a JSON object")
        }
        claims = Claims(object)
        signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }
}

/// A JWT's claims, with typed accessors for the ones Cognito's tokens carry.
public struct Claims: Sendable, Equatable {
    public let all: [String: JSONValue]

    init(_ all: [String: JSONValue]) {
        self.all = all
    }

    public subscript(name: String) -> JSONValue? { all[name] }

    public var issuer: String? { all["iss"]?.stringValue }
    public var subject: String? { all["sub"]?.stringValue }
    /// `aud` as a list, whether the token carries one string or an array.
    public var audience: [String] {
        switch all["aud"] {
        case .string(let value): return [value]
        case .array(let values): return values.compactMap(\.stringValue)
        default: return []
        }
    }
    public var expiresAt: Double? { all["exp"]?.numberValue }
    public var notBefore: Double? { all["nbf"]?.numberValue }
    public var issuedAt: Double? { all["iat"]?.numberValue }
    public var tokenUse: String? { all["token_use"]?.stringValue }
    public var clientId: String? { all["client_id"]?.stringValue }
    public var nonce: String? { all["nonce"]?.stringValue }
    /// Cognito's user name: `cognito:username` in ID tokens, `username` in access tokens.
    public var username: String? { all["cognito:username"]?.stringValue ?? all["username"]?.stringValue }
    public var email: String? { all["email"]?.stringValue }

    /// The federated identities of a user who signed in through an external provider (Google, ...).
    public var identities: [FederatedIdentity] {
        (all["identities"]?.arrayValue ?? []).compactMap { entry in
            guard let object = entry.objectValue, let provider = object["providerName"]?.stringValue else { return nil }
            return FederatedIdentity(providerName: provider, userId: object["userId"]?.stringValue ?? "")
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
