import FoundationEssentials

/// What a profile takes from an Amplify Gen 2 `amplify_outputs.json` (schema versions 1.x): its `auth` section's
/// user pool, app client, region, identity pool, and the OAuth domain, scopes, redirect URIs and social providers.
public struct AmplifyOutputs: Sendable, Equatable {
    public let region: String
    public let userPoolId: String
    public let clientId: String
    /// The identity pool that turns the sessions into AWS credentials (`authvault aws-credentials`).
    public let identityPoolId: String?
    /// The Hosted UI's domain name, such as `example.auth.us-east-1.amazoncognito.com`.
    public let oauthDomain: String?
    public let scopes: [String]
    public let redirectSignInURIs: [String]
    public let redirectSignOutURIs: [String]
    /// The social providers the app offers, as Amplify names them (`GOOGLE`, `FACEBOOK`, ...).
    public let socialProviders: [String]

    private struct Version: Decodable {
        let version: String?
    }

    private struct File: Decodable {
        let auth: Auth?
    }

    private struct Auth: Decodable {
        let aws_region: String
        let user_pool_id: String
        let user_pool_client_id: String
        let identity_pool_id: String?
        let oauth: OAuth?
    }

    private struct OAuth: Decodable {
        let domain: String?
        let scopes: [String]?
        let redirect_sign_in_uri: [String]?
        let redirect_sign_out_uri: [String]?
        let identity_providers: [String]?
    }

    /// The file at `path`; its problems said as a configuration error naming the file.
    public static func read(_ path: String) throws(ConfigError) -> AmplifyOutputs {
        let data: Data
        do { data = try Data(contentsOf: URL(filePath: path)) } catch {
            throw .unreadable(path: path, reason: "cannot read \(path) as Amplify outputs")
        }
        return try parse(data, path: path)
    }

    static func parse(_ data: Data, path: String) throws(ConfigError) -> AmplifyOutputs {
        // The version first: a later schema may shape the auth section differently.
        if let version = try? JSONDecoder().decode(Version.self, from: data).version,
            version != "1" && !version.hasPrefix("1.")
        {
            throw .malformed(
                path: path, problem: "Amplify outputs version \(version); this authvault reads version 1.x")
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw .malformed(path: path, problem: "not Amplify outputs with an auth section (\(Self.explain(error)))")
        }
        guard let auth = file.auth else {
            throw .malformed(
                path: path, problem: "the Amplify outputs have no auth section (the app defines no auth resource)")
        }
        let outputs = AmplifyOutputs(
            region: auth.aws_region, userPoolId: auth.user_pool_id, clientId: auth.user_pool_client_id,
            identityPoolId: auth.identity_pool_id, oauthDomain: auth.oauth?.domain, scopes: auth.oauth?.scopes ?? [],
            redirectSignInURIs: auth.oauth?.redirect_sign_in_uri ?? [],
            redirectSignOutURIs: auth.oauth?.redirect_sign_out_uri ?? [],
            socialProviders: auth.oauth?.identity_providers ?? [])
        try outputs.validate(path: path)
        return outputs
    }

    /// Each value checked as `configure` checks the option it stands for, before anything is written: a file from
    /// anywhere must not point the profile's requests at another host (a region `attacker.example#` would).
    private func validate(path: String) throws(ConfigError) {
        func check(_ field: String, _ value: String, _ body: (String) throws(ConfigError) -> Void) throws(ConfigError) {
            do {
                try body(value)
            } catch {
                let reason = if case .invalidValue(_, _, let reason) = error { reason } else { error.description }
                throw .malformed(path: path, problem: "auth.\(field) \(value.debugDescription) is refused: \(reason)")
            }
        }
        try check("aws_region", region, ProfileValidation.region)
        try check("user_pool_id", userPoolId, ProfileValidation.userPoolId)
        try check("user_pool_id", userPoolId) { (value: String) throws(ConfigError) in
            guard ProfileValidation.region(fromUserPoolId: value) == region else {
                throw .invalidValue(
                    option: "user-pool-id", value: value, reason: "the pool is not in aws_region \(region)")
            }
        }
        try check("user_pool_client_id", clientId, ProfileValidation.clientId)
        if let identityPoolId { try check("identity_pool_id", identityPoolId, ProfileValidation.identityPoolId) }
        if let hostedUI { try check("oauth.domain", hostedUI, ProfileValidation.hostedUI) }
        for scope in scopes { try check("oauth.scopes", scope, ProfileValidation.scope) }
    }

    /// Amplify's names of the social providers, and the names Cognito's `identity_provider` parameter takes.
    static let cognitoProviderNames = [
        "GOOGLE": "Google", "FACEBOOK": "Facebook", "LOGIN_WITH_AMAZON": "LoginWithAmazon",
        "SIGN_IN_WITH_APPLE": "SignInWithApple",
    ]

    /// The provider a browser sign-in goes straight to: only when the app offers exactly one social provider (with
    /// more, or none, the Hosted UI's page lets the user choose).
    public var identityProvider: String? {
        socialProviders.count == 1 ? Self.cognitoProviderNames[socialProviders[0]] : nil
    }

    /// The Hosted UI's base URL: the domain as given when it has a scheme, else https.
    private var hostedUI: String? {
        guard let oauthDomain, !oauthDomain.isEmpty else { return nil }
        return oauthDomain.contains("://") ? oauthDomain : "https://" + oauthDomain
    }

    private static func explain(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing " + (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected value at " + context.codingPath.map(\.stringValue).joined(separator: ".")
        default:
            return "not valid JSON"
        }
    }

    /// What a profile keeps of it: what was not taken, and why, for the user to read.
    public struct Adoption: Sendable, Equatable {
        /// Redirect URIs the app registered that a command-line sign-in cannot listen on (not loopback).
        public var skippedRedirectURIs: [String] = []
    }

    /// Sets the profile's pool, client, region, identity pool, Hosted UI, scopes, loopback redirect URIs (sign-in
    /// and sign-out) and its one social provider if it names exactly one; options the same command gives are applied afterwards and win.
    public func adopt(into settings: inout ProfileSettings) -> Adoption {
        var adoption = Adoption()
        settings.region = region
        if let identityPoolId { settings.identityPoolId = identityPoolId }
        settings.userPoolId = userPoolId
        settings.clientId = clientId
        if let hostedUI { settings.hostedUI = hostedUI }
        if !scopes.isEmpty { settings.scopes = scopes }
        if let identityProvider { settings.identityProvider = identityProvider }
        let loopback = redirectSignInURIs.filter { (try? ProfileValidation.redirectURI($0)) != nil }
        adoption.skippedRedirectURIs = redirectSignInURIs.filter { !loopback.contains($0) }
        if !loopback.isEmpty { settings.redirectURIs = loopback }
        if let signOut = redirectSignOutURIs.first(where: { (try? ProfileValidation.redirectURI($0)) != nil }) {
            settings.signOutURI = signOut
        }
        return adoption
    }
}
