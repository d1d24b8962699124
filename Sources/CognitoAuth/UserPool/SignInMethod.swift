import AuthCrypto

/// How a sign-in starts: a password (SRP or sent over TLS), a choice of first factor (USER_AUTH), or the pool's
/// custom challenges (CUSTOM_AUTH).
public enum SignInMethod: Sendable, CustomStringConvertible {
    case password(SecretBytes, flow: AuthFlow)
    /// USER_AUTH with a preferred first factor, or none to be offered the choice (SELECT_CHALLENGE).
    case choice(preferring: FirstFactor?)
    case custom

    public var description: String {
        switch self {
        case .password(_, let flow): "SignInMethod.password(<redacted>, \(flow.rawValue))"
        case .choice(let factor): "SignInMethod.choice(\(factor?.name ?? "none"))"
        case .custom: "SignInMethod.custom"
        }
    }
}

extension CognitoClient {
    /// Starts a sign-in by `method`, with a remembered `device` if there is one.
    public func signIn(username: String, method: SignInMethod, device: RememberedDevice?) async throws(CognitoError)
        -> SignInStep
    {
        switch method {
        case .password(let password, let flow):
            try await signIn(username: username, password: password, flow: flow, device: device)
        case .choice(let factor): try await signIn(username: username, preferring: factor, device: device)
        case .custom: try await signInWithCustomChallenge(username: username, device: device)
        }
    }
}
