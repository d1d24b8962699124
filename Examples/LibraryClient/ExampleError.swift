import AuthVaultApp

/// Why the example stopped: the application's reason (the API call's among them), whose messages never hold a secret.
enum ExampleError: Error, CustomStringConvertible {
    case usage(String)
    case application(ApplicationError)

    var description: String {
        switch self {
        case .usage(let message): "\(message)\n\(ExampleSettings.usage)"
        case .application(.store(.signInRequired(let reason))):
            "No usable session\(reason.map { " (\($0))" } ?? ""): sign in with 'authvault login'."
        case .application(let error): "\(error)"
        }
    }

    /// As authvault's: 2 usage, 3 sign in, 4 vault locked, 5 network, 1 anything else.
    var exitStatus: Int32 {
        switch self {
        case .usage, .application(.invalidVariable): 2
        case .application(.store(.signInRequired)): 3
        case .application(.vault), .application(.store(.vault)): 4
        case .application(.store(.network)), .application(.apiRequest): 5
        case .application: 1
        }
    }
}
