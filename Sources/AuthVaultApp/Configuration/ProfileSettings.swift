import TokenVault

/// Which vault backend holds a profile's credentials.
public enum VaultChoice: String, Codable, Sendable, CaseIterable {
    /// The Secret Service when it answers and is unlocked, else the encrypted file (said once, then recorded).
    case auto
    case secretService = "secret-service"
    case file
}

/// How `login` signs in with the user-pool API: a password (SRP or sent over TLS), a code Cognito sends
/// (choice-based sign-in's EMAIL_OTP or SMS_OTP), the user's choice among what Cognito offers, or the pool's
/// custom challenges.
public enum AuthFlowChoice: String, Codable, Sendable, CaseIterable {
    case srp
    case password
    case emailOTP = "email-otp"
    case smsOTP = "sms-otp"
    case choice
    case custom
}

/// Who signs in: a person (`authvault login`: a password, or the browser's authorization-code flow), or the app
/// client itself with the OAuth client-credentials grant (machine sign-in: a CI job, a service).
public enum GrantChoice: String, Codable, Sendable, CaseIterable {
    case user
    case clientCredentials = "client-credentials"
}

/// A profile as written in the configuration file: only what the user set. Everything left out is derived from
/// the region and the user pool id when the profile is used (see `ResolvedProfile`). Never holds a secret.
public struct ProfileSettings: Codable, Sendable, Equatable {
    public var region: String?
    public var userPoolId: String?
    public var clientId: String?
    /// The Cognito API URL, for emulators and VPC endpoints.
    public var endpoint: String?
    /// The expected `iss` of tokens.
    public var issuer: String?
    /// Where the JWKS is fetched; separate from the issuer because emulators serve it locally.
    public var jwksURL: String?
    /// The Hosted UI (managed login) base URL.
    public var hostedUI: String?
    /// The callback URLs registered on the app client, tried in order.
    public var redirectURIs: [String]?
    public var scopes: [String]?
    public var identityProvider: String?
    /// OAuth endpoints that are not the Hosted UI's paths (from `--oidc-discovery`, or set one by one); each
    /// one given replaces the Hosted UI's.
    public var oauthEndpoints: OAuthEndpointSettings?
    /// A sign-out URL registered on the app client (Cognito's `logout_uri`), where `logout --browser` lands.
    public var signOutURI: String?
    public var vault: VaultChoice?
    /// `srp` (default) or `password` (USER_PASSWORD_AUTH, for users migrated by a Lambda trigger); `email-otp`,
    /// `sms-otp`, `choice` or `custom` for pools that sign in without a password or with their own challenges.
    public var authFlow: AuthFlowChoice?
    /// The app client rotates refresh tokens: refresh with GetTokensFromRefreshToken.
    public var rotateRefreshTokens: Bool?
    /// A PEM bundle of CAs to trust instead of the system's (a private CA, a TLS-inspecting proxy).
    public var caBundle: String?
    /// Hosts the credential helpers (git, docker) answer for with this profile's token.
    public var helperHosts: [String]?
    /// The Cognito identity pool (`REGION:GUID`) that turns this profile's sessions into AWS credentials.
    public var identityPoolId: String?
    /// The identity service URL, for emulators and VPC endpoints (default: the pool's region's).
    public var identityEndpoint: String?
    /// One of the identity pool's roles to ask for (CustomRoleArn); default: the pool's choice.
    public var awsRoleARN: String?
    /// `user` (default) or `client-credentials` (machine sign-in, with the client secret from the vault).
    public var grant: GrantChoice?
    /// The app client's refresh-token validity in seconds, as set in Cognito: when a session's refresh token ends.
    public var refreshTokenValidity: Int?
    /// A helper or `token` that finds no usable session signs in on the user's terminal (or desktop) before it
    /// answers (`configure --helper-sign-in on`); off when nil.
    public var helperSignIn: Bool?

    public init() {}

    /// The pool and client a vault record of this profile is bound to; another OpenID provider's profile is bound to
    /// its issuer, in the pool's place.
    var binding: ProfileBinding? {
        guard let pool = userPoolId ?? issuer, let client = clientId else { return nil }
        return ProfileBinding(userPoolId: pool, clientId: client)
    }
}

/// A profile with every default filled in, as the rest of the program uses it.
public struct ResolvedProfile: Sendable, Equatable, Encodable {
    public let name: String
    /// The user pool's region; nil for a profile of another OpenID provider.
    public let region: String?
    /// Nil for a profile of another OpenID provider (configured by `--oidc-discovery` alone): it has no user-pool
    /// operations, and its tokens are checked by OpenID Connect's rules instead of Cognito's.
    public let userPoolId: String?
    public let clientId: String
    /// The Cognito API URL; nil without a user pool.
    public let endpoint: String?
    public let issuer: String
    public let jwksURL: String
    public let hostedUI: String?
    public let redirectURIs: [String]
    public let scopes: [String]
    public let identityProvider: String?
    /// OAuth endpoints set by hand or discovered, in place of the Hosted UI's paths (see `oauthEndpoints()`).
    public let oauthOverrides: OAuthEndpointSettings?
    public let signOutURI: String?
    public let vault: VaultChoice
    public let authFlow: AuthFlowChoice
    public let rotatesRefreshTokens: Bool
    public let caBundle: String?
    public let helperHosts: [String]
    public let identityPoolId: String?
    public let identityEndpoint: String?
    public let awsRoleARN: String?
    public let grant: GrantChoice
    /// Seconds a refresh token lasts (the app client's setting); nil when not configured, and then not known.
    public let refreshTokenValidity: Int?
    /// `configure --helper-sign-in`: a helper without a session signs in on the user's terminal first.
    public let helperSignIn: Bool

    /// The configuration file's names, so that a listing shows a profile under the same keys whether it resolves
    /// or not (docs/profiles-list.schema.json).
    private enum CodingKeys: String, CodingKey {
        case name, region, userPoolId, clientId, endpoint, issuer, jwksURL, hostedUI, redirectURIs, scopes,
            identityProvider
        case oauthOverrides = "oauthEndpoints"
        case signOutURI, vault, authFlow
        case rotatesRefreshTokens = "rotateRefreshTokens"
        case caBundle, helperHosts, identityPoolId, identityEndpoint, awsRoleARN, grant, refreshTokenValidity
        case helperSignIn
    }

    /// Cognito's bounds for a refresh token's validity, in seconds: 60 minutes to 10 years. A configuration file
    /// edited by hand to anything else is refused, not computed with.
    public static let refreshTokenValidityRange = 3600...(3650 * 86_400)

    public static let defaultScopes = ["openid", "email", "profile"]

    /// Fills in what Cognito derives: the API endpoint and issuer from the region and pool id, the JWKS under the
    /// issuer, the region from the pool id's prefix. Without a user pool, the issuer (from discovery) is required.
    public init(name: String, settings: ProfileSettings) throws(ConfigError) {
        let issuer: String
        if let userPoolId = settings.userPoolId {
            guard let region = settings.region ?? ProfileValidation.region(fromUserPoolId: userPoolId) else {
                throw .incomplete(profile: name, missing: "--region")
            }
            self.region = region
            endpoint = settings.endpoint ?? "https://cognito-idp.\(region).amazonaws.com/"
            issuer = settings.issuer ?? "https://cognito-idp.\(region).amazonaws.com/\(userPoolId)"
            // Cognito's `identity_provider` skips the Hosted UI page; no other server knows the parameter.
            identityProvider = settings.identityProvider.flatMap { $0.isEmpty ? nil : $0 }
        } else if let oidcIssuer = settings.issuer {
            region = nil
            endpoint = nil
            issuer = oidcIssuer
            identityProvider = nil
        } else {
            throw .incomplete(profile: name, missing: "--user-pool-id")
        }
        guard let clientId = settings.clientId else { throw .incomplete(profile: name, missing: "--client-id") }
        self.name = name
        self.userPoolId = settings.userPoolId
        self.clientId = clientId
        self.issuer = issuer
        jwksURL = settings.jwksURL ?? (issuer.hasSuffix("/") ? issuer : issuer + "/") + ".well-known/jwks.json"
        hostedUI = settings.hostedUI
        redirectURIs = settings.redirectURIs ?? []
        grant = settings.grant ?? .user
        if grant == .clientCredentials, settings.hostedUI == nil, settings.oauthEndpoints?.token == nil {
            throw .incomplete(profile: name, missing: "--hosted-ui")  // or --token-url: where machine tokens come from
        }
        // A machine client asks for its resource servers' scopes: with none set, the client's defaults.
        scopes = settings.scopes ?? (grant == .clientCredentials ? [] : Self.defaultScopes)
        oauthOverrides = settings.oauthEndpoints
        signOutURI = settings.signOutURI
        vault = settings.vault ?? .auto
        authFlow = settings.authFlow ?? .srp
        rotatesRefreshTokens = settings.rotateRefreshTokens ?? false
        caBundle = settings.caBundle
        helperHosts = settings.helperHosts ?? []
        identityPoolId = settings.identityPoolId
        identityEndpoint = settings.identityEndpoint
        awsRoleARN = settings.awsRoleARN
        if let validity = settings.refreshTokenValidity, !Self.refreshTokenValidityRange.contains(validity) {
            throw .invalidValue(
                option: "refresh-token-validity", value: String(validity),
                reason: "expected seconds from 60 minutes to 3650 days, as Cognito allows")
        }
        refreshTokenValidity = settings.refreshTokenValidity
        helperSignIn = settings.helperSignIn ?? false
    }

    /// When a session's refresh token expires, where the app client's validity is configured: counted from the
    /// sign-in, or from the last refresh when refresh tokens rotate (each refresh issues a new one).
    public func refreshTokenExpiry(signedInAt: Double?, lastRefreshAt: Double?) -> Double? {
        guard let validity = refreshTokenValidity, let signedInAt else { return nil }
        let issuedAt = rotatesRefreshTokens ? max(signedInAt, lastRefreshAt ?? signedInAt) : signedInAt
        return issuedAt + Double(validity)
    }
}

/// A profile's OAuth endpoints as the configuration file keeps them.
public struct OAuthEndpointSettings: Codable, Sendable, Equatable {
    public var authorization: String?
    public var token: String?
    public var userInfo: String?
    public var revocation: String?
    public var logout: String?
    /// RFC 8628's device authorization endpoint (`login --device`); no Hosted UI has one.
    public var deviceAuthorization: String?
    /// `cognito` (`logout_uri`) or `oidc` (`post_logout_redirect_uri`); default: cognito under a Hosted UI.
    public var logoutStyle: LogoutStyleChoice?

    public init() {}

    public enum LogoutStyleChoice: String, Codable, Sendable, CaseIterable {
        case cognito
        case oidc
    }

}
