import NetworkHosts

/// Why a token was not accepted. No case carries the token itself.
public enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case unsupportedAlgorithm(String)
    /// The header's `alg` is not the algorithm of the JWKS key its `kid` names.
    case algorithmMismatch(header: String, key: String)
    case unknownKey(kid: String)
    case badSignature
    case expired(at: Double)
    case notYetValid(until: Double)
    case wrongIssuer(expected: String, found: String)
    case wrongAudience(expected: String)
    /// An ID token for several audiences whose `azp` is not this client (or missing).
    case wrongAuthorizedParty(expected: String)
    case wrongClient(expected: String)
    case wrongTokenUse(expected: String, found: String)
    case nonceMismatch
    case missingClaim(String)
    /// A time claim (`exp`, `nbf`, `iat`) that is not a time between 1970 and 9999.
    case timeOutOfRange(String)
    /// The key set could not be fetched or read: retryable, and not the token's fault.
    case keySetUnavailable(String)

    public var description: String {
        switch self {
        case .malformed(let reason): return "The token is malformed: \(reason)."
        case .unsupportedAlgorithm(let alg):
            return "The token is signed with \(ServerText.escaped(alg)); only RS256 and ES256 are accepted."
        case .algorithmMismatch(let header, let key):
            return
                "The token's header names \(ServerText.escaped(header)), but its key is for \(ServerText.escaped(key)): it was not issued by this issuer."
        case .unknownKey(let kid):
            return
                "The token is signed by an unknown key (kid \(ServerText.escaped(kid))): check the profile's issuer and JWKS URL."
        case .badSignature: return "The token's signature does not verify: it was altered or not issued by this issuer."
        case .expired(let at): return "The token expired at \(Self.format(at))."
        case .notYetValid(let until):
            return "The token is not valid until \(Self.format(until)): check this machine's clock."
        case .wrongIssuer(let expected, let found):
            return "The token was issued by \(ServerText.escaped(found)), not \(expected): check the profile's issuer."
        case .wrongAudience(let expected):
            return "The ID token is not for app client \(expected): check the profile's app client id."
        case .wrongAuthorizedParty(let expected):
            return "The ID token was issued to another party (azp), not app client \(expected)."
        case .wrongClient(let expected):
            return "The access token is not for app client \(expected): check the profile's app client id."
        case .wrongTokenUse(let expected, let found):
            return "Expected an \(expected) token, got '\(ServerText.escaped(found))'."
        case .nonceMismatch: return "The ID token's nonce does not match this sign-in: sign in again."
        case .missingClaim(let claim): return "The token has no '\(claim)' claim."
        case .timeOutOfRange(let claim): return "The token's '\(claim)' is not a time between 1970 and 9999."
        case .keySetUnavailable(let reason): return "The signing keys could not be fetched (\(reason)); try again."
        }
    }

    /// Whole seconds when they fit (a value this type was given may be any number), the number itself otherwise.
    private static func format(_ seconds: Double) -> String {
        "Unix time \(Int64(exactly: seconds.rounded(.down)).map(String.init) ?? "\(seconds)")"
    }
}
