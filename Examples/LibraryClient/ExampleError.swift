import AuthVaultApp

/// Why the example stopped: the application's reason (the API call's among them), whose messages never hold a secret.
enum ExampleError: Error, CustomStringConvertible {
    case usage(String)
    case application(ApplicationError)

    var description: String {
        switch self {
        case .usage(let message): "\(message)\n\(ExampleSettings.usage)"
        case .application(.signInRequired(let cause, _)):
            "No usable session (\(cause)): sign in with 'authvault login'."
        case .application(let error): "\(error)"
        }
    }

    /// As authvault's: 2 usage, 3 sign in, 4 vault locked, 5 network, 1 anything else.
    var exitStatus: Int32 {
        switch self {
        case .usage, .application(.invalidVariable): 2
        case .application(.signInRequired): 3
        case .application(.vaultLocked): 4
        case .application(.network), .application(.apiRequest): 5
        case .application: 1
        }
    }
}
