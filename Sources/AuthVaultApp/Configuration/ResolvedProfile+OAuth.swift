import CognitoAuth

extension ResolvedProfile {
    /// Where the browser sign-in goes: the Hosted UI's paths, with each endpoint the profile sets in their place;
    /// nil when it has neither a Hosted UI nor authorize and token endpoints.
    func oauthEndpoints() throws(OAuthError) -> OAuthEndpoints? {
        let set = oauthOverrides ?? OAuthEndpointSettings()
        var endpoints: OAuthEndpoints
        if let hostedUI {
            endpoints = try OAuthEndpoints(hostedUIBaseURL: hostedUI)
        } else if let authorization = set.authorization, let token = set.token {
            endpoints = OAuthEndpoints(authorization: authorization, token: token)
        } else {
            return nil
        }
        endpoints.authorization = set.authorization ?? endpoints.authorization
        endpoints.token = set.token ?? endpoints.token
        endpoints.userInfo = set.userInfo ?? endpoints.userInfo
        endpoints.revocation = set.revocation ?? endpoints.revocation
        endpoints.logout = set.logout ?? endpoints.logout
        endpoints.deviceAuthorization = set.deviceAuthorization
        switch set.logoutStyle {
        case .cognito: endpoints.logoutStyle = .cognito
        case .oidc: endpoints.logoutStyle = .openIDConnect
        case nil: break
        }
        return endpoints
    }

    /// Whether `login` can sign in with the device grant: another OpenID provider's device authorization endpoint
    /// (Cognito has none), beside the other OAuth endpoints.
    public var hasDeviceSignIn: Bool {
        userPoolId == nil && oauthOverrides?.deviceAuthorization != nil && hasBrowserSignIn
    }

    /// Whether `login` can sign in through the browser.
    public var hasBrowserSignIn: Bool {
        hostedUI != nil || (oauthOverrides?.authorization != nil && oauthOverrides?.token != nil)
    }

    /// Where a machine profile gets its tokens: the token endpoint set by hand or discovered, else the Hosted UI's;
    /// nil when it has neither.
    func tokenEndpoint() throws(OAuthError) -> String? {
        if let token = oauthOverrides?.token { return token }
        return try hostedUI.map { hostedUI throws(OAuthError) in try OAuthEndpoints(hostedUIBaseURL: hostedUI).token }
    }
}
