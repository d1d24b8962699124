import BoundedJSON

/// A successful token endpoint answer (RFC 6749 section 5.1; OpenID Connect Core section 3.1.3.3).
struct OAuthTokenResponse: Decodable {
    let accessToken: String
    let tokenType: String
    let idToken: String?
    let refreshToken: String?
    /// Seconds; some servers send it as a string.
    let expiresIn: Double?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", idToken = "id_token", refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        switch try container.decodeIfPresent(JSONValue.self, forKey: .expiresIn) {
        case .number(let seconds): expiresIn = seconds
        case .string(let text): expiresIn = Double(text)
        default: expiresIn = nil
        }
    }
}
