import AuthStore
import CognitoAuth
import HTTPTransport
import TokenVault

/// Why the example stopped: each library's own error, whose message says what to do (and never holds a secret).
enum ExampleError: Error, CustomStringConvertible {
    case usage(String)
    case vault(VaultError)
    case configuration(CognitoError)
    case session(AuthStoreError)
    case api(HTTPError)

    var description: String {
        switch self {
        case .usage(let message): "\(message)\n\(ExampleSettings.usage)"
        case .vault(let error): "The vault: \(error)"
        case .configuration(let error): "The Cognito client: \(error)"
        case .session(let error): "\(error)"
        case .api(let error): "The API call: \(error)"
        }
    }

    /// As authvault's: 2 usage, 3 sign in, 4 vault locked, 5 network, 1 anything else.
    var exitStatus: Int32 {
        switch self {
        case .usage: 2
        case .session(.signInRequired): 3
        case .vault, .session(.vault): 4
        case .session(.network), .api: 5
        case .configuration, .session: 1
        }
    }
}
