import Foundation
import TestSupport

/// JWTs as the tests read and make them, with Foundation's JSON and base64 (independent of the project's decoder).
enum TestJWT {
    /// The claims of a compact JWT, unverified; nil when it is not one.
    static func claims(of token: String) -> [String: Any]? { object(part: 1, of: token) }

    /// The header of a compact JWT, unverified; nil when it is not one.
    static func header(of token: String) -> [String: Any]? { object(part: 0, of: token) }

    private static func object(part index: Int, of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// An unsigned JWT (`alg` none, empty signature) with these claims: the store decodes a cached token's
    /// `iat` and `exp` without verifying it, so such a token puts a session wherever a test wants in its lifetime.
    static func unsigned(_ claims: [String: Any]) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"], options: [.sortedKeys])
        let body = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return Base64URLText.encode(Array(header)) + "." + Base64URLText.encode(Array(body)) + "."
    }

    /// Every substring of `text` shaped like a compact JWT (three base64url parts, the first two non-empty).
    static func tokens(in text: String) -> [String] {
        // A JWT's header is a JSON object, so its base64url starts "eyJ": a dotted host name such as
        // cognito-idp.us-east-1.amazonaws (in `token --claims`) is no token.
        let pattern = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/
        return text.matches(of: pattern).map { String($0.output) }
    }
}
