import BoundedJSON
import FoundationEssentials
import HTTPTransport

/// A successful token endpoint answer (RFC 6749 section 5.1; OpenID Connect Core section 3.1.3.3).
struct OAuthTokenResponse: Decodable {
    let accessToken: String
    let tokenType: String
    let idToken: String?
    let refreshToken: String?
    /// Seconds; some servers send it as a string. Nan when present but not a number.
    let expiresIn: Double?
    /// The scopes granted, space-separated, when they differ from those asked for (RFC 6749 section 5.1).
    let scope: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case scope
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try? container.decodeIfPresent(String.self, forKey: .scope)
        switch try container.decodeIfPresent(JSONValue.self, forKey: .expiresIn) {
        case .number(let seconds): expiresIn = seconds
        case .string(let text): expiresIn = Double(text) ?? .nan
        case nil, .null: expiresIn = nil
        default: expiresIn = .nan
        }
    }

    /// The answer in `body`, whose token type must be Bearer.
    static func decoded(from body: [UInt8], _ operation: OAuthOperation) throws(OAuthError) -> OAuthTokenResponse {
        let answer: OAuthTokenResponse
        do {
            answer = try JSONDecoder().decode(OAuthTokenResponse.self, from: Data(body))
        } catch {
            throw .invalidResponse(
                operation: operation.rawValue, reason: "not a token answer with access_token and token_type")
        }
        guard answer.tokenType.lowercased() == "bearer" else {
            throw .invalidResponse(operation: operation.rawValue, reason: "the token type is not Bearer")
        }
        if let expiresIn = answer.expiresIn, !ServerTime.lifetime.contains(expiresIn) {
            throw .invalidResponse(
                operation: operation.rawValue,
                reason: "expires_in is not a number of seconds from 0 to \(Int(ServerTime.lifetime.upperBound))")
        }
        return answer
    }
}
