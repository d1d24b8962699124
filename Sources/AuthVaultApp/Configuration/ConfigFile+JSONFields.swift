import BoundedJSON

/// The configuration read without Codable, on every start-up (see `JSONFields`): the same members as the `Codable`
/// conformances, each read as they read it. `ConfigFileReadingTests` checks that the two agree.
extension ConfigFile {
    init(fields: JSONFields) throws(JSONFields.Refused) {
        self.init()
        version = try JSONFields.required(fields.int("version"))
        profiles = try JSONFields.required(fields.objectsByName("profiles", ProfileSettings.init(fields:)))
        currentProfile = try fields.string("currentProfile")
    }
}

extension ProfileSettings {
    init(fields: JSONFields) throws(JSONFields.Refused) {
        self.init()
        region = try fields.string("region")
        userPoolId = try fields.string("userPoolId")
        clientId = try fields.string("clientId")
        endpoint = try fields.string("endpoint")
        issuer = try fields.string("issuer")
        jwksURL = try fields.string("jwksURL")
        hostedUI = try fields.string("hostedUI")
        redirectURIs = try fields.strings("redirectURIs")
        scopes = try fields.strings("scopes")
        identityProvider = try fields.string("identityProvider")
        oauthEndpoints = try fields.object("oauthEndpoints", OAuthEndpointSettings.init(fields:))
        signOutURI = try fields.string("signOutURI")
        vault = try fields.choice("vault")
        authFlow = try fields.choice("authFlow")
        rotateRefreshTokens = try fields.bool("rotateRefreshTokens")
        caBundle = try fields.string("caBundle")
        helperHosts = try fields.strings("helperHosts")
        identityPoolId = try fields.string("identityPoolId")
        identityEndpoint = try fields.string("identityEndpoint")
        awsRoleARN = try fields.string("awsRoleARN")
        grant = try fields.choice("grant")
        refreshTokenValidity = try fields.int("refreshTokenValidity")
        helperSignIn = try fields.bool("helperSignIn")
    }
}

extension OAuthEndpointSettings {
    init(fields: JSONFields) throws(JSONFields.Refused) {
        self.init()
        authorization = try fields.string("authorization")
        token = try fields.string("token")
        userInfo = try fields.string("userInfo")
        revocation = try fields.string("revocation")
        logout = try fields.string("logout")
        deviceAuthorization = try fields.string("deviceAuthorization")
        logoutStyle = try fields.choice("logoutStyle")
    }
}
